/// A narration's text as its import aligns it: the split (chapters and items), and every word of
/// the book in one list, with offsets made global so interpolation can span items, and the range
/// of that list each item holds.
struct NarratedText: Sendable {
    let split: SplitResult
    let words: [WordToken]
    let ranges: [Range<Int>]

    init(_ split: SplitResult) {
        var words: [WordToken] = []
        var ranges: [Range<Int>] = []
        // Exactly as many as the book has: grown by doubling, the list would hold up to twice that.
        words.reserveCapacity(split.items.reduce(0) { $0 + $1.wordCount })
        ranges.reserveCapacity(split.items.count)
        var offset = 0
        for item in split.items {
            let first = words.count
            for word in item.words {
                words.append(
                    WordToken(index: words.count, text: word.text, start: word.start + offset, end: word.end + offset))
            }
            ranges.append(first..<words.count)
            offset += item.text.unicodeScalars.count + 1
        }
        self.split = split
        self.words = words
        self.ranges = ranges
    }

    /// The whole text as the alignment's key names it.
    var joined: String { split.items.map(\.text).joined(separator: "\n") }
}
