/// A sentence of an item: its text, its words and its chapter-absolute time span.
package struct TimedSentence: Sendable {
    /// Position of the sentence in its item, from 0.
    package var index: Int
    package var text: String
    /// Its place in the item's text, in Unicode scalar offsets (quotes and punctuation included).
    package var charRange: Range<Int>
    /// Indices of its words in the item.
    package var wordRange: Range<Int>
    package var startMs: Int
    package var endMs: Int
}
