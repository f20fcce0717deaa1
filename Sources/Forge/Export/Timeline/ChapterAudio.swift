import Foundation

/// A chapter's audio: every item's audio object at its place on the timeline, silence between.
enum ChapterAudio {
    static func render(_ timeline: ChapterTimeline, store: ObjectStore) throws -> [Int16] {
        try render(timeline, store: store, samples: 0..<timeline.totalSamples)
    }

    /// The chapter's audio as exports write it (rendered, then mastered when the settings ask), as
    /// one array: for a credit or a resampled encode. Writing a chapter streams it (``stream``).
    static func exported(_ timeline: ChapterTimeline, store: ObjectStore, settings: ExportSettings) throws -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(timeline.totalSamples)
        try stream(timeline, store: store, settings: settings, cancellation: nil) { samples.append(contentsOf: $0) }
        return samples
    }

    /// How many chapters an export encodes at once: one per core (mastering streams too, so a
    /// chapter's memory does not grow with its length).
    static func encodingJobs(_ settings: ExportSettings) -> Int {
        ProcessInfo.processInfo.activeProcessorCount
    }

    /// Writes the chapter's audio as exports write it into the new file open at `descriptor`
    /// (closed when done), streamed (``stream``); `advance` is told the samples of each block written.
    static func write(
        _ timeline: ChapterTimeline, store: ObjectStore, settings: ExportSettings, format: AudioSettings.Format,
        to descriptor: Int32, label: String,
        cancellation: CancellationFlag? = nil, reading: (@Sendable () -> Void)? = nil, advance: (Int) -> Void = { _ in }
    ) throws {
        let writer = try SoundFile.Writer(
            descriptor: descriptor, format: format, sampleRate: timeline.sampleRate, label: label)
        try stream(timeline, store: store, settings: settings, cancellation: cancellation, reading: reading) {
            try writer.write($0)
            advance($0.count)
        }
        try writer.finish()
    }

    /// Hands the chapter's audio as exports write it to `emit` in order, in blocks: item by item
    /// with the silences between, so memory holds one item's audio however long the chapter.
    /// Mastered, the chapter is played through a few times (measured, limited and measured again,
    /// then written: ``Mastering``), item by item each time. A stop is honoured between items (a
    /// long chapter takes seconds to encode).
    /// `reading` is told of every item read, in every pass (a mastering pass puts nothing out).
    static func stream(
        _ timeline: ChapterTimeline, store: ObjectStore, settings: ExportSettings, cancellation: CancellationFlag?,
        reading: (@Sendable () -> Void)? = nil, _ emit: (ArraySlice<Int16>) throws -> Void
    ) throws {
        guard let mastering = settings.mastering else {
            return try render(timeline, store: store, cancellation: cancellation, reading: reading, into: emit)
        }
        try withoutActuallyEscaping(emit) { emit in
            try Mastering.master(
                { sink in try render(timeline, store: store, cancellation: cancellation, reading: reading, into: sink)
                },
                sampleRate: timeline.sampleRate, settings: mastering, emit: emit)
        }
    }

    /// The chapter's audio unmastered, into `emit` item by item with the silences between.
    static func render(
        _ timeline: ChapterTimeline, store: ObjectStore, cancellation: CancellationFlag?,
        reading: (@Sendable () -> Void)? = nil,
        into emit: (ArraySlice<Int16>) throws -> Void
    ) throws {
        let silence = [Int16](repeating: 0, count: 8192)
        func emitSilence(_ count: Int) throws {
            var left = count
            while left > 0 {
                try emit(silence[0..<min(left, silence.count)])
                left -= silence.count
            }
        }
        var cursor = 0
        for item in timeline.items {
            if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
            reading?()
            let audio = try itemAudio(item, rate: timeline.sampleRate, store: store)
            // As in render: the timeline counts the header's frames, whatever the decoder yields.
            let count = min(audio.count, item.sampleCount)
            try emitSilence(item.startSample - cursor)
            try emit(audio[0..<count])
            try emitSilence(item.sampleCount - count)
            cursor = item.startSample + item.sampleCount
        }
        try emitSilence(timeline.totalSamples - cursor)
    }

    /// An item's audio object decoded at the chapter's rate.
    static func itemAudio(_ item: TimedItem, rate: Int, store: ObjectStore) throws -> [Int16] {
        let decoded: DecodedAudio
        do { decoded = try store.decodeAudio(relativePath: item.audioPath) } catch {
            throw ExportError.missingAudio(itemID: item.record.id, path: item.audioPath)
        }
        return Resampler.resample(decoded.samples, from: decoded.sampleRate, to: rate)
    }

    /// The stretch `range` (in samples at the timeline's rate) of the chapter's audio; only the
    /// items overlapping it are decoded.
    static func render(_ timeline: ChapterTimeline, store: ObjectStore, samples range: Range<Int>) throws -> [Int16] {
        var samples = [Int16](repeating: 0, count: range.count)
        for item in timeline.items(overlappingSamples: range) {
            let audio = try itemAudio(item, rate: timeline.sampleRate, store: store)
            // The timeline counts the header's frames; a decoder that yields a few more or fewer
            // (MP3 padding) must not shift the items after it.
            let count = min(audio.count, item.sampleCount)
            let from = max(item.startSample, range.lowerBound)
            let to = min(item.startSample + count, range.upperBound)
            guard from < to else { continue }
            samples.replaceSubrange(
                (from - range.lowerBound)..<(to - range.lowerBound),
                with: audio[(from - item.startSample)..<(to - item.startSample)])
        }
        return samples
    }
}
