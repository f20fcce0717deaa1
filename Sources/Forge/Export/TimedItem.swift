/// One item placed on its chapter's timeline: where its audio starts, and its words and
/// sentences in chapter-absolute milliseconds.
public struct TimedItem: Sendable {
    public var record: ItemRecord
    /// The item's audio object, relative to the output directory.
    public var audioPath: String
    /// Where the item's audio starts in the chapter, in samples at the chapter's sample rate.
    public var startSample: Int
    public var sampleCount: Int
    public var startMs: Int
    public var endMs: Int
    /// Silence after the item, before the next one (or the chapter's end).
    public var pauseAfterMs: Int
    /// Words with chapter-absolute times.
    public var words: [TimedWord]
    public var sentences: [TimedSentence]
}
