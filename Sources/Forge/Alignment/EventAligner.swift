/// Word timings from espeak-ng's own events.
///
/// espeak-ng does not report one event per word: some words get none, some events have length
/// 0, and positions can point at punctuation just before a word. Events are mapped to words by
/// text position; words without an event get a start interpolated by character count between
/// their neighbours; a word ends where the next begins, or at a clause end between them.
/// Every word gets a non-empty timing, increasing, inside the item's audio.
package enum EventAligner {
    package static func align(words: [WordToken], events: [SynthesisEvent], durationMs: Int) -> [WordTiming] {
        guard !words.isEmpty else { return [] }
        let duration = max(durationMs, words.count * 2)
        var starts = [Int?](repeating: nil, count: words.count)
        var lastAnchorTime = -1
        for event in events where event.kind == .word {
            guard let index = wordIndex(at: event.textPosition, in: words) else { continue }
            if starts[index] == nil, event.audioMs > lastAnchorTime, isAfterAnchors(index, starts) {
                starts[index] = event.audioMs
                lastAnchorTime = event.audioMs
            }
        }
        let clauseEnds = events.filter { $0.kind == .end }.map(\.audioMs).sorted()
        let speechEnd = min(duration, clauseEnds.last.map { max($0, lastAnchorTime + 1) } ?? duration)
        var filled = interpolate(starts, words: words, speechEnd: max(speechEnd, lastAnchorTime + 1))

        strictlyIncrease(&filled, duration: duration)
        var timings: [WordTiming] = []
        timings.reserveCapacity(words.count)
        var endIndex = 0
        for index in filled.indices {
            let start = filled[index]
            let next = index + 1 < filled.count ? filled[index + 1] : max(speechEnd, start + 1)
            // A clause end between this word and the next marks a pause that is not part of the word.
            while endIndex < clauseEnds.count, clauseEnds[endIndex] <= start { endIndex += 1 }
            var end = next
            if endIndex < clauseEnds.count, clauseEnds[endIndex] < next { end = clauseEnds[endIndex] }
            end = min(max(end, start + 1), index + 1 < filled.count ? next : duration)
            timings.append(WordTiming(startMs: start, endMs: max(end, start + 1)))
        }
        return timings
    }

    /// Makes starts strictly increasing, each leaving a millisecond for every word after it.
    static func strictlyIncrease(_ starts: inout [Int], duration: Int) {
        for index in starts.indices {
            let earliest = index == 0 ? 0 : starts[index - 1] + 1
            let latest = duration - (starts.count - index)
            starts[index] = min(max(starts[index], earliest), latest)
        }
    }

    /// The word containing `position`, or the first word after it when it falls between words.
    static func wordIndex(at position: Int, in words: [WordToken]) -> Int? {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].end <= position { low = middle + 1 } else { high = middle }
        }
        return low < words.count ? low : nil
    }

    private static func isAfterAnchors(_ index: Int, _ starts: [Int?]) -> Bool {
        starts[(index + 1)...].allSatisfy { $0 == nil }
    }

    /// Fills missing starts in proportion to character offsets between known anchors.
    static func interpolate(_ starts: [Int?], words: [WordToken], speechEnd: Int) -> [Int] {
        var anchors: [(index: Int, time: Int, offset: Int)] = []
        for (index, start) in starts.enumerated() {
            if let start { anchors.append((index, start, words[index].start)) }
        }
        let textEnd = words.last!.end
        // Virtual anchors at the item's start and at the end of speech bracket the real ones.
        if anchors.first?.index != 0 {
            anchors.insert((0, 0, words[0].start), at: 0)
        }
        let tail = (index: words.count, time: speechEnd, offset: textEnd)
        var result = [Int](repeating: 0, count: words.count)
        for (position, anchor) in anchors.enumerated() {
            let next = position + 1 < anchors.count ? anchors[position + 1] : tail
            result[anchor.index] = anchor.time
            let span = max(1, next.offset - anchor.offset)
            for index in (anchor.index + 1)..<max(anchor.index + 1, next.index) {
                let fraction = Double(words[index].start - anchor.offset) / Double(span)
                result[index] = anchor.time + Int((Double(next.time - anchor.time) * fraction).rounded())
            }
        }
        return result
    }
}
