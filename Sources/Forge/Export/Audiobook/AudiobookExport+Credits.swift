import Foundation

extension AudiobookExport {
    /// The M4B's credits as chapters of their own ("Opening Credits" before the book's first
    /// chapter, "Closing Credits" after its last), laid out at `sampleRate` (the book's) with the
    /// chapters' head and tail silence, from the audio a worker spoke (``ExportSettings/creditAudio``).
    static func creditChapters(
        settings: ExportSettings, store: ObjectStore, sampleRate: Int, chapterCount: Int
    ) throws -> (opening: ChapterTimeline?, closing: ChapterTimeline?) {
        let credits = BookCredits(settings)
        let pauses = TimelinePauses(settings)
        func chapter(_ text: String?, ordinal: Int, title: String, id: String) throws -> ChapterTimeline? {
            guard let text else { return nil }
            let speech = try spokenCredit(text, settings: settings, store: store)
            let path = settings.creditAudio[text, default: ""]
            let samples = Int(Int64(speech.samples.count) * Int64(sampleRate) / Int64(max(1, speech.sampleRate)))
            let item = SpeakableItem(
                id: id, kind: .heading, chapter: ordinal, ordinal: 0, text: text, sourcePath: "", sourceStart: 0,
                sourceEnd: 0)
            return ChapterTimeline.laidOut(
                chapter: Chapter(ordinal: ordinal, title: title, sourcePath: ""),
                sounds: [ChapterTimeline.Sound(record: ItemRecord(item: item), audioPath: path, samples: samples)],
                sampleRate: sampleRate, pauses: pauses)
        }
        return (
            try chapter(credits.opening, ordinal: 0, title: "Opening Credits", id: "opening-credit"),
            try chapter(credits.closing, ordinal: chapterCount + 1, title: "Closing Credits", id: "closing-credit")
        )
    }
}
