/// A chapter of the book: a run of items under one title.
package struct Chapter: Sendable, Equatable {
    /// 1-based position in reading order across all sources.
    package var ordinal: Int
    package var title: String
    /// The source file the chapter starts in.
    package var sourcePath: String
    /// The part, book, volume or section above the chapter ("Book Five: 1806 - 07"), in a book that
    /// has them; its title then begins with it ("Book Five: 1806 - 07 — CHAPTER I").
    package var part: String?

    package init(ordinal: Int, title: String, sourcePath: String, part: String? = nil) {
        self.ordinal = ordinal
        self.title = title
        self.sourcePath = sourcePath
        self.part = part
    }
}
