/// Reads items' words from the manifest for their timings: a chapter at a time when many items
/// are to be placed (one query for the chapter), an item at a time for an edit's few. Items
/// finish in reading order, so only the latest chapter's words are held: memory follows the
/// longest chapter, not the book.
struct ChapterWordReader {
    /// Whether words are read a chapter at a time.
    var byChapter = false
    private var chapterWords: [String: [WordToken]] = [:]
    private var chapterOrdinal: Int?

    /// An item's words: from the chapter read last, reading the item's chapter when it comes later
    /// in the book (with ``byChapter``), else the item's own.
    mutating func words(of item: ItemRecord, in manifest: Manifest) throws -> [WordToken] {
        if let known = chapterWords[item.id] { return known }
        if byChapter && item.chapter > (chapterOrdinal ?? Int.min) {
            chapterWords = try manifest.words(inChapter: item.chapter)
            chapterOrdinal = item.chapter
            if let known = chapterWords[item.id] { return known }
        }
        return try manifest.words(of: item.id)
    }
}
