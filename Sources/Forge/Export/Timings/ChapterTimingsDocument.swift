/// A chapter's word timings in the JSON export (`json/chapter-NNN.json`): docs/exports.md,
/// "JSON word timings". Times are chapter-absolute.
struct ChapterTimingsDocument: ExportDocument {
    var version = 1
    var chapter: Int
    var title: String
    /// The part (book, volume, section) the chapter is in, when the book has them.
    var part: String?
    /// The chapter's audio file, relative to this file.
    var audio: String
    var sampleRate: Int
    var durationMs: Int
    var items: [ItemTimingsDocument]

    init(_ timeline: ChapterTimeline, audioFormat: AudioSettings.Format) {
        chapter = timeline.chapter.ordinal
        title = timeline.chapter.title
        part = timeline.chapter.part
        audio = "../" + ExportPaths.chapterAudio(timeline, format: audioFormat)
        sampleRate = timeline.sampleRate
        durationMs = timeline.durationMs
        items = timeline.items.map { ItemTimingsDocument($0, offsetMs: 0) }
    }
}
