/// Word timings as JSON (documented in `docs/exports.md`): one file per chapter with
/// chapter-absolute times, and one per item with times relative to the item's own audio.
enum JSONTimingsExport {
    static func write(_ book: BookTimeline, audioFormat: AudioSettings.Format, to writer: inout ExportWriter) throws {
        try book.forEachTimed { timeline in
            var json = "{\"version\":1,\"chapter\":\(timeline.chapter.ordinal),\"title\":\(JSONText.quoted(timeline.chapter.title))"
            json += ",\"audio\":\(JSONText.quoted("../audio/\(timeline.fileStem).\(audioFormat.fileExtension)"))"
            json += ",\"sampleRate\":\(timeline.sampleRate),\"durationMs\":\(timeline.durationMs),\"items\":["
            for (index, item) in timeline.items.enumerated() {
                if index > 0 { json += "," }
                json += "\n" + itemJSON(item, offsetMs: 0)
            }
            json += "\n]}\n"
            try writer.write(Array(json.utf8), to: "json/\(timeline.fileStem).json")
            for item in timeline.items {
                try writer.write(Array((itemJSON(item, offsetMs: item.startMs) + "\n").utf8), to: "json/items/\(item.record.id).json")
            }
        }
    }

    /// An item's object; times are shifted back by `offsetMs` (the item's start, for per-item files).
    static func itemJSON(_ item: TimedItem, offsetMs: Int) -> String {
        let record = item.record
        var json = "{\"id\":\(JSONText.quoted(record.id)),\"kind\":\(JSONText.quoted(record.kind)),\"chapter\":\(record.chapter)"
        json += ",\"ordinal\":\(record.ordinal),\"startMs\":\(item.startMs - offsetMs),\"endMs\":\(item.endMs - offsetMs)"
        json += ",\"text\":\(JSONText.quoted(record.text)),\"audioObject\":\(JSONText.quoted(item.audioPath))"
        json += ",\"alignment\":\(JSONText.quoted(record.alignmentSource?.rawValue ?? "none")),\"sentences\":["
        for (index, sentence) in item.sentences.enumerated() {
            if index > 0 { json += "," }
            json += "{\"startMs\":\(sentence.startMs - offsetMs),\"endMs\":\(sentence.endMs - offsetMs),\"firstWord\":\(sentence.wordRange.lowerBound),\"lastWord\":\(sentence.wordRange.upperBound - 1),\"text\":\(JSONText.quoted(sentence.text))}"
        }
        json += "],\"words\":["
        for (index, word) in item.words.enumerated() {
            if index > 0 { json += "," }
            let start = (word.timing?.startMs).map { String($0 - offsetMs) } ?? "null"
            let end = (word.timing?.endMs).map { String($0 - offsetMs) } ?? "null"
            json += "{\"text\":\(JSONText.quoted(word.token.text)),\"startMs\":\(start),\"endMs\":\(end),\"charStart\":\(word.token.start),\"charEnd\":\(word.token.end)"
            if let confidence = word.confidence { json += ",\"confidence\":\(Double((confidence * 1000).rounded()) / 1000)" }
            json += "}"
        }
        return json + "]}"
    }
}
