/// What one shard of a book does (`forge build --shard I/N`), worked out alike on every machine from
/// the chapters' lengths as estimated from the text, so no shard asks another.
///
/// The book's estimated audio is cut into `N` equal parts. A chapter is finished by the shard its
/// middle falls in (``Shard/chapters(of:)``); a chapter estimated longer than a piece
/// (``ChapterTimeline/pieceLimitMs``) is finished piece by piece — each encoding piece and each
/// verification chunk by the shard the corresponding point of the chapter's estimated span falls
/// in — so one long chapter is spread like the rest of the book. Whether a chapter is spread is
/// decided by the estimate, not by its audio: a shorter chapter whose estimated span crosses a cut
/// is made by its own shard alone, not by both (its audio may still come out longer than a piece;
/// its one shard then finishes every piece). A shard makes the items of every chapter it finishes
/// any of, and of each chapter either side the one item at the edge its encodings start or end on
/// (``items(of:)``): with a paid or neural voice, a neighbour's whole chapter would be paid for twice.
package struct ShardAssignment: Sendable {
    package let shard: Shard
    /// The chapters finished whole by this shard (ordinals).
    package let chapters: Set<Int>
    /// The chapters whose every item this shard makes: those it finishes any of (ordinals).
    package let itemChapters: Set<Int>
    /// The chapters just before and just after those, of which it makes one item each: the
    /// previous chapter's last and the next chapter's first.
    package let edgeChapters: (previous: Set<Int>, next: Set<Int>)
    /// The chapters estimated longer than a piece, finished piece by piece by the shards their
    /// stretches fall in (ordinals, of the whole book).
    package let spreadChapters: Set<Int>
    /// Each chapter's estimated stretch of the book's audio, milliseconds, by ordinal.
    private let spans: [Int: Range<Int>]
    private let totalMs: Int

    /// `lengths`: every chapter's estimated length, in reading order; `pieceLimitMs`: the longest
    /// chapter finished whole.
    package init(shard: Shard, lengths: [(ordinal: Int, ms: Int)], pieceLimitMs: Int = ChapterTimeline.pieceLimitMs) {
        self.shard = shard
        chapters = Set(shard.chapters(of: lengths))
        var spans: [Int: Range<Int>] = [:]
        var before = 0
        for chapter in lengths {
            spans[chapter.ordinal] = before..<(before + max(0, chapter.ms))
            before += max(0, chapter.ms)
        }
        self.spans = spans
        totalMs = before
        spreadChapters = Set(lengths.filter { $0.ms > pieceLimitMs }.map(\.ordinal))
        // Every spread chapter with a stretch in this shard's part: any of its pieces or chunks can be this shard's.
        var touched = chapters
        if before > 0 {
            for (ordinal, span) in spans where !span.isEmpty && spreadChapters.contains(ordinal) {
                let first = Self.part(at: Double(span.lowerBound), total: before, count: shard.count)
                let last = Self.part(at: Double(span.upperBound) - 0.5, total: before, count: shard.count)
                if (first...last).contains(shard.index) { touched.insert(ordinal) }
            }
        }
        itemChapters = touched
        edgeChapters = (
            Set(touched.map { $0 - 1 }).subtracting(touched), Set(touched.map { $0 + 1 }).subtracting(touched)
        )
    }

    /// The ids of the items of `items` (the book's, in reading order) this shard makes: every item
    /// of ``itemChapters``, the last item of each chapter before them and the first of each
    /// chapter after them. An encoding is made with its neighbours' edges around it
    /// (``ChapterEncoder/contextSamples``, a tenth of a second): a chapter's first samples are its
    /// first item's, and its last are the silence after its last item. Where a layout makes an
    /// edge that one item does not give (pauses shorter than the edge), the encoding's key, which
    /// names the edge's items and places, differs from the assembler's, and the assembler
    /// encodes that chapter itself: the bytes are the same either way.
    package func items(of items: [ItemRecord]) -> Set<String> {
        var ids: Set<String> = []
        var lastOfChapter: [Int: String] = [:]
        var seen: Set<Int> = []
        for item in items {
            if itemChapters.contains(item.chapter) {
                ids.insert(item.id)
            } else if edgeChapters.next.contains(item.chapter), seen.insert(item.chapter).inserted {
                ids.insert(item.id)
            }
            if edgeChapters.previous.contains(item.chapter) { lastOfChapter[item.chapter] = item.id }
        }
        ids.formUnion(lastOfChapter.values)
        return ids
    }

    /// Whether this shard finishes the work at `fraction` (0...1) of chapter `ordinal`'s length: for
    /// a chapter finished `whole` (its audio is one piece) or not spread, whether the chapter is this
    /// shard's; else whether that point of the chapter's estimated stretch is in this shard's part of
    /// the book.
    package func owns(chapter ordinal: Int, at fraction: Double, whole: Bool) -> Bool {
        if whole || !spreadChapters.contains(ordinal) { return chapters.contains(ordinal) }
        guard let span = spans[ordinal], totalMs > 0 else { return false }
        let point = Double(span.lowerBound) + min(1, max(0, fraction)) * Double(span.count)
        return Self.part(at: point, total: totalMs, count: shard.count) == shard.index
    }

    /// Whether this shard finishes the stretch `samples` of chapter `ordinal` (`chapterSamples`
    /// long): a whole chapter (`whole`) by its shard, a piece or part by where its middle falls.
    package func owns(chapter ordinal: Int, stretch samples: Range<Int>, of chapterSamples: Int, whole: Bool) -> Bool {
        let middle = Double(samples.lowerBound + samples.upperBound) / 2 / Double(max(1, chapterSamples))
        return owns(chapter: ordinal, at: middle, whole: whole)
    }

    /// The part (1-based) of a book of `total` ms cut into `count` that the point `ms` falls in.
    static func part(at ms: Double, total: Int, count: Int) -> Int {
        max(1, min(count, Int(ms / Double(total) * Double(count)) + 1))
    }
}
