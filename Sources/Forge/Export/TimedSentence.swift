/// A sentence of an item: its text, its words and its chapter-absolute time span.
public struct TimedSentence: Sendable {
    /// Position of the sentence in its item, from 0.
    public var index: Int
    public var text: String
    /// Its place in the item's text, in Unicode scalar offsets (quotes and punctuation included).
    public var charRange: Range<Int>
    /// Indices of its words in the item.
    public var wordRange: Range<Int>
    public var startMs: Int
    public var endMs: Int
}
