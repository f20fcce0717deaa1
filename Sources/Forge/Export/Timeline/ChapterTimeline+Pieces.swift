/// A long chapter's audio in pieces of bounded length, each encoded on its own (``ChapterEncoder``)
/// and, in a sharded build, by whichever shard owns it: a four-hour chapter is eight pieces of
/// work, not one that holds a shard until the rest of the matrix has finished. The M4B and the
/// EPUB join a chapter's pieces as they join chapters, frame to frame; a chapter within the limit
/// (most chapters) is one piece, the chapter itself.
extension ChapterTimeline {
    /// The longest piece of a chapter, about: half an hour (nine minutes of one core to verify, master
    /// and encode), so a shard's share of a long book is made of many pieces. Debug builds take
    /// `FORGE_PIECE_SECONDS`, so the tests cut a short chapter.
    package static var pieceLimitMs: Int {
        if let seconds = TestHook.value("FORGE_PIECE_SECONDS").flatMap(Int.init), seconds > 0 { return seconds * 1000 }
        return 30 * 60_000
    }

    /// Where the chapter is cut into pieces of about `limitMs` at most (samples, ascending, each on a
    /// frame edge): as many even parts as the limit asks, each cut moved to the pause between two
    /// items nearest it, at the frame edge nearest the pause's middle, so no item is cut and a piece
    /// mastered on its own changes its gain in silence. Only pauses with silence either side of the
    /// cut for the encoder's context (``ChapterEncoder/contextSamples``) are cut at: the samples a
    /// piece is encoded between are silence whatever the mastering. Depends only on the chapter's layout.
    func pieceCuts(limitMs: Int = Self.pieceLimitMs) -> [Int] {
        let parts = limitMs > 0 ? (durationMs + limitMs - 1) / limitMs : 1
        guard parts > 1, items.count > 1 else { return [] }
        var candidates: [Int] = []
        for (item, next) in zip(items, items.dropFirst()) {
            let (silenceStart, silenceEnd) = (item.startSample + item.sampleCount, next.startSample)
            let middle = (silenceStart + silenceEnd) / 2
            var edge = middle / Self.frameSamples * Self.frameSamples
            if edge < silenceStart { edge += Self.frameSamples }
            let context = ChapterEncoder.contextSamples
            if edge - silenceStart >= context, silenceEnd - edge >= context, edge > 0, edge < totalSamples {
                candidates.append(edge)
            }
        }
        var cuts: [Int] = []
        var from = 0
        for part in 1..<parts {
            let target = totalSamples / parts * part
            // The first candidate at or after the target, or the one before it, whichever is nearer.
            var low = from
            var high = candidates.count
            while low < high {
                let middle = (low + high) / 2
                if candidates[middle] < target { low = middle + 1 } else { high = middle }
            }
            var chosen = low
            if low > from, low == candidates.count || target - candidates[low - 1] <= candidates[low] - target {
                chosen = low - 1
            }
            guard chosen < candidates.count else { break }
            cuts.append(candidates[chosen])
            from = chosen + 1
        }
        return cuts
    }

    /// The chapter's pieces (``pieceCuts(limitMs:)``), each a timeline of its own stretch: its items
    /// placed from the piece's start. A piece carries no words or sentences: it is audio to encode.
    func pieces(limitMs: Int = Self.pieceLimitMs) -> [ChapterTimeline] {
        let cuts = pieceCuts(limitMs: limitMs)
        guard !cuts.isEmpty else { return [self] }
        let bounds = [0] + cuts + [totalSamples]
        return zip(bounds, bounds.dropFirst()).map { piece($0..<$1) }
    }

    /// The stretch `range` (samples, cut between items) as a timeline of its own.
    func piece(_ range: Range<Int>) -> ChapterTimeline {
        let offsetMs = Self.milliseconds(range.lowerBound, rate: sampleRate)
        let inside = items.filter { $0.startSample >= range.lowerBound && $0.startSample < range.upperBound }.map {
            item in
            var moved = item
            moved.startSample -= range.lowerBound
            moved.startMs -= offsetMs
            moved.endMs -= offsetMs
            moved.words = []
            moved.sentences = []
            return moved
        }
        return ChapterTimeline(
            chapter: chapter, items: inside, sampleRate: sampleRate,
            durationMs: Self.milliseconds(range.count, rate: sampleRate), totalSamples: range.count)
    }

    /// Which piece (index) the sample `position` of the chapter is in, given its cuts.
    static func piece(at position: Int, cuts: [Int]) -> Int {
        cuts.firstIndex { position < $0 } ?? cuts.count
    }
}
