/// Word timings as JSON (``ChapterTimingsDocument``, ``ItemTimingsDocument``; documented in
/// `docs/exports.md`): one file per chapter with chapter-absolute times, and one per item with
/// times relative to the item's own audio.
enum JSONTimingsExport {
    static func write(_ book: BookTimeline, audioFormat: AudioSettings.Format, to writer: inout ExportWriter) throws {
        try book.forEachTimed { timeline in
            try writer.write(
                try ChapterTimingsDocument(timeline, audioFormat: audioFormat).encodedLine(),
                to: ExportPaths.timings(timeline))
            for item in timeline.items {
                try writer.write(
                    try ItemTimingsDocument(item, offsetMs: item.startMs).encodedLine(),
                    to: "json/items/\(item.record.id).json")
            }
        }
    }
}
