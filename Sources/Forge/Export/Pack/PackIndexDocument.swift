/// A pack's `index.json`: the book and every item in reading order, with the names of its audio
/// and timings entries (docs/exports.md, "Audio packs").
struct PackIndexDocument: ExportDocument {
    var version = 1
    var title: String
    var language: String
    /// "forge" and the version that wrote the pack.
    var tool: String
    var items: [Item]

    struct Item: Encodable {
        /// The entry's name without folder or extension: `chapter-NNN/NNNN` or `items/<recipe id>`.
        var name: String
        var id: String
        var kind: String
        var chapter: Int
        var chapterTitle: String
        /// The part (book, volume, section) the chapter is in, when the book has them.
        var chapterPart: String?
        var ordinal: Int
        var text: String
        /// The audio entry, `audio/<name>.<ext>`.
        var audio: String
        /// The timings entry, `timings/<name>.json` (an ``ItemTimingsDocument``).
        var timings: String
        var durationMs: Int
        var voice: String
        /// The speaking character, on dialogue only.
        var character: String?
    }
}
