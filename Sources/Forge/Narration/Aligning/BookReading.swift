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
        var starts: [Int32] = []
        var ends: [Int32] = []
        var spokenSamples = 0
        var cepstra: [Float] = []
        var reported = 0
        for (index, text) in texts.enumerated() {
            if stop?.isCancelled == true { throw CancellationError() }
            let words = Tokenizer.words(in: text)
            var samples: [Int16] = []
            var timings: [WordTiming] = []
            if !words.isEmpty {
                if let speech = try? engine.synthesize(text, voice: voice, itemID: "reading") {
                    samples = RecognizerInput.samples(speech.samples[...], from: speech.sampleRate)
                    timings = EventAligner.align(words: words, events: speech.events, durationMs: speech.durationMs)
                } else {
                    // An item espeak-ng cannot say is a silence as long as a reading of its words.
                    samples = [Int16](repeating: 0, count: rate / 1000 * unspokenWordMs * words.count)
                    timings = words.indices.map {
                        WordTiming(startMs: $0 * unspokenWordMs, endMs: ($0 + 1) * unspokenWordMs)
                    }
                }
            }
            let offsetMs = spokenSamples / (rate / 1000)
            for timing in timings {
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
}
