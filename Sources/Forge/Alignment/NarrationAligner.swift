/// Aligns a long recording (a human narrator, another engine; hours long) to its text without
/// drift: the audio is aligned in windows, each starting at the last confident word of the one
/// before (an anchor), so an error never carries further than one window.
///
/// Each window gives the recognizer about 1.5× the words the window's audio should hold, with a
/// grammar that may end after any word; words in the window's last seconds are not kept (the
/// window may cut them), and the next window starts at the end of the last confident word.
public final class NarrationAligner {
    public var windowSeconds = 60
    /// The stretch at a window's end whose words are left for the next window.
    public var marginSeconds = 12
    /// Words at least this confident can anchor the next window.
    public var anchorConfidence = 0.5

    private let aligner: ForcedAligner

    public init(aligner: ForcedAligner) {
        self.aligner = aligner
    }

    /// Timings for every word of `words` (offsets into one text) in `audio`; progress is the
    /// fraction of the audio done.
    public func align(words: [WordToken], audio: DecodedAudio, progress: (Double) -> Void = { _ in }) throws(RecognitionError) -> ForcedAlignment {
        let rate = PocketSphinxDecoder.sampleRate
        let samples = RecognizerInput.samples(audio.samples[...], from: audio.sampleRate)
        let texts = words.map(\.text)
        var placements = [WordPlacement?](repeating: nil, count: words.count)
        guard !words.isEmpty, !samples.isEmpty else { return ForcedAlignment.complete(words: words, placements: placements, durationMs: audio.durationMs) }
        let wordsPerSecond = Double(words.count) / (Double(samples.count) / Double(rate))
        let window = windowSeconds * rate
        let margin = marginSeconds * rate
        var cursor = 0
        var next = 0
        while next < words.count && cursor < samples.count {
            var end = min(samples.count, cursor + window)
            let isLast = samples.count - end < margin
            if isLast { end = samples.count }
            let count = isLast ? words.count - next : min(words.count - next, Int(wordsPerSecond * Double(windowSeconds) * 1.5) + 20)
            // Open-ended even at the end of the audio: a window whose words cannot all be placed
            // (a sentence the narrator skipped) ends early, and the next window starts there.
            let windowTexts = Array(texts[next..<(next + count)])
            var found = try aligner.place(windowTexts, in: samples[cursor..<end], openEnded: true)
            if Self.looksWrong(found, isLast: isLast) {
                // A run of squeezed words, or words left over at the end of the recording: the
                // narrator probably skipped something. Try again letting words be passed over,
                // and keep whichever reads better.
                let retry = try aligner.place(windowTexts, in: samples[cursor..<end], openEnded: true, allowSkips: true)
                if Self.quality(retry) > Self.quality(found) { found = retry }
            }
            let offsetMs = cursor * 1000 / rate
            // Keep the words before the margin (all of them in the last window); the next window
            // starts at the end of the last confident one.
            let keepBeforeMs = isLast ? Int.max : (end - margin - cursor) * 1000 / rate
            var anchor: Int?
            for (index, placement) in found.enumerated() {
                guard let placement else { continue }
                if placement.endMs > keepBeforeMs { break }
                if isLast || (placement.confidence ?? 0) >= anchorConfidence { anchor = index }
            }
            if let anchor, let anchorEnd = found[anchor]?.endMs {
                for index in 0...anchor { placements[next + index] = found[index].map { shifted($0, by: offsetMs) } }
                next += anchor + 1
                cursor += anchorEnd * rate / 1000
            } else {
                // Nothing confident here (music, silence, a passage not in the text): leave one word
                // unplaced and move on by about one word's time.
                next += 1
                cursor += Int(Double(rate) / max(wordsPerSecond, 0.1))
            }
            progress(Double(cursor) / Double(samples.count))
        }
        progress(1)
        return ForcedAlignment.complete(words: words, placements: placements, durationMs: audio.durationMs)
    }

    /// Whether a window's placements contain a run of squeezed words (four or more in a row
    /// below 0.1 confidence), which spoken words do not produce, or (in the recording's last
    /// window) leave four or more words unplaced.
    static func looksWrong(_ found: [WordPlacement?], isLast: Bool) -> Bool {
        if isLast, found.reversed().prefix(while: { $0 == nil }).count >= 4 { return true }
        var run = 0
        for placement in found {
            guard let placement else { continue }
            run = (placement.confidence ?? 0) < 0.1 ? run + 1 : 0
            if run >= 4 { return true }
        }
        return false
    }

    /// How well a window's placements read: placed words count by their confidence, and a
    /// squeezed word costs as much as a skipped one.
    static func quality(_ found: [WordPlacement?]) -> Double {
        let placed = found.compactMap { $0 }
        guard !placed.isEmpty else { return 0 }
        return placed.reduce(0) { $0 + ($1.confidence ?? 0) } - Double(placed.filter { ($0.confidence ?? 0) < 0.1 }.count)
    }

    private func shifted(_ placement: WordPlacement, by ms: Int) -> WordPlacement {
        WordPlacement(startMs: placement.startMs + ms, endMs: placement.endMs + ms, confidence: placement.confidence)
    }
}
