/// A chapter as one continuous recording: its items in order with the pauses between them.
/// Every export (chapter audio, JSON, captions, SMIL, HTML) reads times from here, so they agree.
public struct ChapterTimeline: Sendable {
    public var chapter: Chapter
    public var items: [TimedItem]
    public var sampleRate: Int
    /// Length of the chapter audio, pauses included.
    public var durationMs: Int
    public var totalSamples: Int

    /// The file stem used for this chapter's exports, e.g. `chapter-003`.
    public var fileStem: String { "chapter-" + String(repeating: "0", count: max(0, 3 - String(chapter.ordinal).count)) + String(chapter.ordinal) }

    static func milliseconds(_ samples: Int, rate: Int) -> Int { Int((Int64(samples) * 1000) / Int64(max(1, rate))) }
}
