/// The result of forced alignment for one stretch of audio: a timing for every word, with the
/// recognizer's confidence for the words it placed.
package struct ForcedAlignment: Sendable, Equatable {
    package var timings: [WordTiming]
    /// Posterior probability per word; nil for a word that was interpolated.
    package var confidences: [Double?]

    /// Indices of words the recognizer could not place (their timings are interpolated).
    package var unplaced: [Int] { confidences.indices.filter { confidences[$0] == nil } }

    package init(timings: [WordTiming], confidences: [Double?]) {
        self.timings = timings
        self.confidences = confidences
    }

    /// Turns placements (nil where the recognizer placed nothing) into a timing for every word:
    /// gaps interpolated by character offset, starts strictly increasing, every word at least
    /// 1 ms long and inside `0..<durationMs`.
    static func complete(words: [WordToken], placements: [WordPlacement?], durationMs: Int) -> ForcedAlignment {
        guard !words.isEmpty else { return ForcedAlignment(timings: [], confidences: []) }
        let duration = max(durationMs, words.count * 2)
        // Walked, not mapped: a narration's placements are a whole book's words.
        var lastEnd: Int?
        var lastStart = 0
        for case let placement? in placements {
            lastEnd = max(lastEnd ?? placement.endMs, placement.endMs)
            lastStart = max(lastStart, placement.startMs)
        }
        let speechEnd = min(duration, max(lastEnd ?? duration, lastStart + 1))
        var starts = EventAligner.interpolate(placements.map { $0?.startMs }, words: words, speechEnd: speechEnd)
        EventAligner.strictlyIncrease(&starts, duration: duration)
        var timings: [WordTiming] = []
        timings.reserveCapacity(words.count)
        for index in starts.indices {
            let start = starts[index]
            let next = index + 1 < starts.count ? starts[index + 1] : duration
            var end = placements[index]?.endMs ?? (index + 1 < starts.count ? next : speechEnd)
            end = min(max(end, start + 1), next, duration)
            timings.append(WordTiming(startMs: start, endMs: max(end, start + 1)))
        }
        let confidences = placements.map { placement in placement.map { $0.confidence ?? 1 } }
        return ForcedAlignment(timings: timings, confidences: confidences)
    }
}
