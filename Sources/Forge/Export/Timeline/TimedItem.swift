/// One item placed on its chapter's timeline: where its audio starts, and its words and
/// sentences in chapter-absolute milliseconds.
package struct TimedItem: Sendable {
    package var record: ItemRecord
    /// The item's audio object, relative to the output directory.
    package var audioPath: String
    /// Where the item's audio starts in the chapter, in samples at the chapter's sample rate.
    package var startSample: Int
    package var sampleCount: Int
    package var startMs: Int
    package var endMs: Int
    /// Silence after the item, before the next one (or the chapter's end).
    package var pauseAfterMs: Int
    /// Words with chapter-absolute times.
    package var words: [TimedWord]
    package var sentences: [TimedSentence]
}
