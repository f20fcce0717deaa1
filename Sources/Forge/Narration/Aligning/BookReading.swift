import Foundation

/// Forge's own reading of a text, what ``WarpedNarrationAligner`` warps a recording onto: every
/// item spoken by espeak-ng in turn with a pause after it, made into frames as it is spoken (never
/// held), and where each word of it is, from espeak-ng's events.
struct BookReading: Sendable {
    /// The silence after each item.
    static let pauseMs = 400
    /// A word's length where espeak-ng cannot say its item (silence of that length stands for it).
    static let unspokenWordMs = 300

    let frames: FrameFile
    /// Each word's first frame and the frame after its last, in the text's order (never decreasing).
    let starts: [Int32]
    let ends: [Int32]

    /// Reads `texts` (the items, in order) with `voice` into frames in a scratch file in
    /// `directory`; `progress` is told the share of the items read. Cancelled `stop` ends it
    /// (with `CancellationError`) before the next item.
    ///
    /// espeak-ng speaks the items on a thread of its own, at most two ahead of this one (each
    /// holds its samples: a paragraph can be a minute of audio), which turns
    /// each into frames: one process speaks one item at a time, and the frames cost about as much.
    static func make(
        texts: [String], voice: VoiceSettings, directory: URL, stop: CancellationFlag? = nil,
        progress: (Double) -> Void = { _ in }
    ) throws -> BookReading {
        let engine = try EspeakEngine()
        // A language espeak-ng has no voice for is read in its English (the recognizer's own).
        let voice = engine.hasVoice(voice.id) ? voice : VoiceSettings(id: "en-us")
        let writer = try FrameFile.Writer(directory: directory, coefficients: PocketSphinxDecoder.FrontEnd.coefficients)
        let frontEnd = try PocketSphinxDecoder.FrontEnd()
        let rate = PocketSphinxDecoder.sampleRate
        let pause = [Int16](repeating: 0, count: rate / 1000 * pauseMs)
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        let spoken = HandOff<SpokenItem>(capacity: 2)
        BlockingThreads.start(1) { _ in
            defer { spoken.finish() }
            for text in texts {
                guard stop?.isCancelled != true, spoken.put(speak(text, engine: engine, voice: voice)) else { return }
            }
        }
        defer { spoken.cancel() }
        var starts: [Int32] = []
        var ends: [Int32] = []
        var spokenSamples = 0
        var cepstra: [Float] = []
        var reported = 0
        for index in texts.indices {
            if stop?.isCancelled == true { throw CancellationError() }
            guard let item = spoken.take() else { throw CancellationError() }
            let samples =
                item.sampleRate == rate
                ? item.samples : RecognizerInput.samples(item.samples[...], from: item.sampleRate)
            let offsetMs = spokenSamples / (rate / 1000)
            for timing in item.timings {
                let start = max(Int(starts.last ?? 0), (offsetMs + timing.startMs) / frameMs)
                starts.append(Int32(start))
                ends.append(Int32(max(start + 1, (offsetMs + timing.endMs + frameMs - 1) / frameMs)))
            }
            frontEnd.process(samples + pause, into: &cepstra)
            try writer.append(cepstra: cepstra)
            cepstra.removeAll(keepingCapacity: true)
            spokenSamples += samples.count + pause.count
            let hundredths = (index + 1) * 100 / texts.count
            if hundredths > reported {
                reported = hundredths
                progress(Double(hundredths) / 100)
            }
        }
        frontEnd.finish(into: &cepstra)
        try writer.append(cepstra: cepstra)
        return BookReading(frames: writer.finish(), starts: starts, ends: ends)
    }

    /// One item as espeak-ng spoke it: its samples at `sampleRate` and its words' times.
    private struct SpokenItem: Sendable {
        var samples: [Int16]
        var sampleRate: Int
        var timings: [WordTiming]
    }

    /// `text` spoken, or, where espeak-ng cannot say it, a silence as long as a reading of its words.
    private static func speak(_ text: String, engine: EspeakEngine, voice: VoiceSettings) -> SpokenItem {
        let words = Tokenizer.words(in: text)
        let rate = PocketSphinxDecoder.sampleRate
        guard !words.isEmpty else { return SpokenItem(samples: [], sampleRate: rate, timings: []) }
        if let speech = try? engine.synthesize(text, voice: voice, itemID: "reading") {
            return SpokenItem(
                samples: speech.samples, sampleRate: speech.sampleRate,
                timings: EventAligner.align(words: words, events: speech.events, durationMs: speech.durationMs))
        }
        return SpokenItem(
            samples: [Int16](repeating: 0, count: rate / 1000 * unspokenWordMs * words.count), sampleRate: rate,
            timings: words.indices.map { WordTiming(startMs: $0 * unspokenWordMs, endMs: ($0 + 1) * unspokenWordMs) })
    }
}
