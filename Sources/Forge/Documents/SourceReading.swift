/// How one source was read: the encoding its text was in, and how much of it is not the book
/// (front and back matter, contents, a licence) and so is not spoken. `forge plan` reports it.
package struct SourceReading: Sendable, Equatable {
    /// The source's path as items name it (`-` for standard input).
    package var path: String
    /// The character encoding of a text source; nil for an EPUB (its documents are Unicode by rule).
    package var encoding: TextEncoding?
    /// Words of the source left unspoken as front or back matter (``FrontMatter``).
    package var unspokenWords: Int
    /// What those words were, in reading order and each named once: "Project Gutenberg licence",
    /// "contents", "title page" …
    package var unspokenKinds: [String]
    /// What the reader doubted but read anyway, for `forge plan` to warn of.
    package var warnings: [String]

    package init(
        path: String, encoding: TextEncoding?, unspokenWords: Int = 0, unspokenKinds: [String] = [],
        warnings: [String] = []
    ) {
        self.path = path
        self.encoding = encoding
        self.unspokenWords = unspokenWords
        self.unspokenKinds = unspokenKinds
        self.warnings = warnings
    }
}
