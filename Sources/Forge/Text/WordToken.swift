/// One word of an item, located by a range of Unicode scalar offsets in the item's text.
package struct WordToken: Sendable, Equatable, Codable {
    package var index: Int
    package var text: String
    /// Unicode scalar (code point) offsets into the item text, end exclusive.
    package var start: Int
    package var end: Int

    package init(index: Int, text: String, start: Int, end: Int) {
        self.index = index
        self.text = text
        self.start = start
        self.end = end
    }
}
