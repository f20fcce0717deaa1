import Foundation
import Synchronization

extension FrameFile {
    /// The frames of the recording at `url` (any format libsndfile reads, mixed to mono), read a
    /// block at a time at 16 kHz into a scratch file in `directory` (``RecordingBuilder``).
    package static func reading(audioAt url: URL, directory: URL, factor: Int = 32) throws -> FrameFile {
        let builder = try RecordingBuilder(directory: directory, factor: factor)
        let reader = try SoundFile.Reader(url: url)
        let stream = RecognizerInputStream(sourceRate: reader.sampleRate)
        while true {
            let block = try reader.read()
            if block.isEmpty { break }
            try builder.append(stream.process(block))
        }
        try builder.append(stream.finish())
        return try builder.finish().frames
    }

    /// ``reading(audioAt:directory:factor:)`` of each recording, side by side (the front end is
    /// most of a warp's time, and each reading is independent of the other).
    package static func readings(audioAt urls: [URL], directory: URL, factor: Int = 32) throws -> [FrameFile] {
        let results = Mutex([Result<FrameFile, any Error>?](repeating: nil, count: urls.count))
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            let result = Result { try reading(audioAt: urls[index], directory: directory, factor: factor) }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }
}

extension FrameFile {
    /// A recording's frames and sound made as its 16 kHz samples arrive, in blocks of any size:
    /// its cepstra into a scratch file, and which 10 ms frames are louder than the pauses
    /// (``SpeechOnsets``, whose levels are judged a minute at a time): where the recording
    /// speaks, without the acoustic model.
    final class RecordingBuilder {
        private let writer: Writer
        private let frontEnd: PocketSphinxDecoder.FrontEnd
        private static let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond
        private static let minute = 60 * PocketSphinxDecoder.sampleRate
        private var pending: [Int16] = []
        private var sounding: [Bool] = []
        private var cepstra: [Float] = []

        init(directory: URL, factor: Int = 32) throws {
            writer = try Writer(
                directory: directory, coefficients: PocketSphinxDecoder.FrontEnd.coefficients, factor: factor)
            frontEnd = try PocketSphinxDecoder.FrontEnd()
        }

        /// Whether no sample was added.
        var isEmpty: Bool { sounding.isEmpty && pending.isEmpty }

        /// Adds the next samples.
        func append(_ samples: [Int16]) throws {
            pending += samples
            while pending.count >= Self.minute {
                try process(Array(pending[..<Self.minute]))
                pending.removeFirst(Self.minute)
            }
        }

        /// The frames and the sound of all the samples added.
        func finish() throws -> (frames: FrameFile, sound: FrameFlags) {
            if !pending.isEmpty { try process(pending) }
            frontEnd.finish(into: &cepstra)
            try writer.append(cepstra: cepstra)
            var sound = FrameFlags(count: sounding.count)
            for (frame, isSound) in sounding.enumerated() where isSound { sound[frame] = true }
            return (writer.finish(), sound)
        }

        private func process(_ block: [Int16]) throws {
            let onsets = SpeechOnsets(samples: block[...])
            sounding += (0..<((block.count + Self.samplesPerFrame - 1) / Self.samplesPerFrame)).map(onsets.isSound)
            frontEnd.process(block, into: &cepstra)
            try writer.append(cepstra: cepstra)
            cepstra.removeAll(keepingCapacity: true)
        }
    }

    /// The frames and sound of `samples` (16 kHz) (``RecordingBuilder``), read a minute at a time;
    /// `progress` is told the share read.
    static func reading(
        samples: RecognizerAudio, directory: URL, factor: Int = 32, progress: (Double) -> Void = { _ in }
    ) throws -> (frames: FrameFile, sound: FrameFlags) {
        let builder = try RecordingBuilder(directory: directory, factor: factor)
        let block = 60 * PocketSphinxDecoder.sampleRate
        for start in stride(from: 0, to: samples.count, by: block) {
            try builder.append(samples.samples(start..<min(samples.count, start + block)))
            progress(Double(min(samples.count, start + block)) / Double(samples.count))
        }
        return try builder.finish()
    }
}
