/// One of N parts of a build, for `forge build --shard I/N` on N machines sharing a remote cache.
///
/// A shard owns a run of chapters (``chapters(of:)``), balanced by their estimated length: it makes
/// their items (and those of the chapters either side, whose edges its encodings need) and finishes
/// them — verification, the chapters' AAC encodings, the ACX files — sharing every result through
/// the cache, where the assembling build finds them. The assignment needs no coordination.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    package var index: Int
    package var count: Int

    package static let allowedCounts = 1...1024

    package init?(index: Int, count: Int) {
        guard Self.allowedCounts.contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`, as `--shard` takes it.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    package var description: String { "\(index)/\(count)" }

    /// The chapters (ordinals) this shard finishes — verifies, encodes, masters — of a book whose
    /// chapters are estimated to last `lengths` (in reading order): a run of chapters, the book cut
    /// where its audio divides into `count` equal parts (a chapter goes to the part its middle falls
    /// in). The same on every machine; an edit that lengthens a chapter moves at most the chapters at
    /// a cut to the shard beside.
    package func chapters(of lengths: [(ordinal: Int, ms: Int)]) -> [Int] {
        let total = lengths.reduce(0) { $0 + max(0, $1.ms) }
        guard total > 0 else { return index == 1 ? lengths.map(\.ordinal) : [] }
        var before = 0
        var own: [Int] = []
        for chapter in lengths {
            let middle = Double(before) + Double(max(0, chapter.ms)) / 2
            let part = min(count, Int(middle / Double(total) * Double(count)) + 1)
            if part == index { own.append(chapter.ordinal) }
            before += max(0, chapter.ms)
        }
        return own
    }
}
