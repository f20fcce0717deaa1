/// One item's word timings in the JSON export (`json/items/<id>.json`, each element of a chapter
/// file's `items`, and a pack's `timings/…json`): docs/exports.md, "JSON word timings".
struct ItemTimingsDocument: ExportDocument {
    var id: String
    var kind: String
    var chapter: Int
    var ordinal: Int
    var startMs: Int
    var endMs: Int
    var text: String
    var audioObject: String
    /// `synthesizer`, `forced`, `narration` or `none`: where the word times came from.
    var alignment: String
    var sentences: [Sentence]
    var words: [Word]

    struct Sentence: Encodable {
        var startMs: Int
        var endMs: Int
        /// Indexes into `words`, both inclusive.
        var firstWord: Int
        var lastWord: Int
        var text: String
    }

    struct Word: Encodable {
        var text: String
        /// Null for a word the alignment could not place.
        var startMs: Int?
        var endMs: Int?
        /// Unicode scalar offsets into the item's text.
        var charStart: Int
        var charEnd: Int
        /// Forced alignment's confidence (0–1, three decimals); absent for synthesizer timings.
        var confidence: Double?

        private enum CodingKeys: String, CodingKey {
            case text, startMs, endMs, charStart, charEnd, confidence
        }

        // Unplaced times are written as null, not left out: every word has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(startMs, forKey: .startMs)
            try container.encode(endMs, forKey: .endMs)
            try container.encode(charStart, forKey: .charStart)
            try container.encode(charEnd, forKey: .charEnd)
            try container.encodeIfPresent(confidence, forKey: .confidence)
        }
    }

    /// `item` with its times shifted back by `offsetMs` (its own start, for per-item files; 0 in a chapter file).
    init(_ item: TimedItem, offsetMs: Int) {
        let record = item.record
        id = record.id
        kind = record.kind
        chapter = record.chapter
        ordinal = record.ordinal
        startMs = item.startMs - offsetMs
        endMs = item.endMs - offsetMs
        text = record.text
        audioObject = item.audioPath
        alignment = record.alignmentSource?.rawValue ?? "none"
        sentences = item.sentences.map {
            Sentence(
                startMs: $0.startMs - offsetMs, endMs: $0.endMs - offsetMs, firstWord: $0.wordRange.lowerBound,
                lastWord: $0.wordRange.upperBound - 1, text: $0.text)
        }
        words = item.words.map { word in
            Word(
                text: word.token.text, startMs: word.timing.map { $0.startMs - offsetMs },
                endMs: word.timing.map { $0.endMs - offsetMs },
                charStart: word.token.start, charEnd: word.token.end,
                confidence: word.confidence.map { Double(($0 * 1000).rounded()) / 1000 })
        }
    }
}
