extension Splitter {
    /// Text as items hold it — runs of white space and control characters folded to one space, none
    /// leading — with each kept scalar's source offset (a folded run keeps its first one's). An
    /// export finds an item's characters in its document by folding the block the same way.
    static func folded(_ raw: [Unicode.Scalar], origins: [Int]) -> (text: [Unicode.Scalar], origins: [Int]) {
        var text: [Unicode.Scalar] = []
        var folded: [Int] = []
        for (scalar, offset) in zip(raw, origins) {
            if scalar.isSpaceOrControl {
                if let last = text.last, last != " " {
                    text.append(" ")
                    folded.append(offset)
                }
            } else {
                text.append(scalar)
                folded.append(offset)
            }
        }
        return (text, folded)
    }
}
