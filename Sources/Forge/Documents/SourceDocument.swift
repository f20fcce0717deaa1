/// One source read into documents: a text file is one document; an EPUB is its content documents
/// in reading order.
public struct SourceDocument: Sendable, Equatable {
    public var documents: [StructuredDocument]
    /// Chapters start where the book's table of contents says (blocks with a `chapterTitle`), not at
    /// `h1`/`h2` headings.
    public var chaptersFromContents: Bool

    public init(documents: [StructuredDocument], chaptersFromContents: Bool = false) {
        self.documents = documents
        self.chaptersFromContents = chaptersFromContents
    }
}
