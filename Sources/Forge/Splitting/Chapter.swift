/// A chapter of the book: a run of items under one title.
package struct Chapter: Sendable, Equatable {
    /// 1-based position in reading order across all sources.
    package var ordinal: Int
    package var title: String
    /// The source file the chapter starts in.
    package var sourcePath: String

    package init(ordinal: Int, title: String, sourcePath: String) {
        self.ordinal = ordinal
        self.title = title
        self.sourcePath = sourcePath
    }
}
