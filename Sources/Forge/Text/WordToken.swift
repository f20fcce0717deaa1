/// One word of an item, located by a range of Unicode scalar offsets in the item's text.
public struct WordToken: Sendable, Equatable, Codable {
    public var index: Int
    public var text: String
    /// Unicode scalar (code point) offsets into the item text, end exclusive.
    public var start: Int
    public var end: Int

    public init(index: Int, text: String, start: Int, end: Int) {
        self.index = index
        self.text = text
        self.start = start
        self.end = end
    }
}
