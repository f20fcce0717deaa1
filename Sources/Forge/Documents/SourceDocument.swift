/// One source read into documents: a text file is one document; an EPUB is its content documents
/// in reading order.
package struct SourceDocument: Sendable, Equatable {
    package var documents: [StructuredDocument]
    /// Chapters start where the book's table of contents says (blocks with a `chapterTitle`), not at
    /// `h1`/`h2` headings.
    package var chaptersFromContents: Bool

    package init(documents: [StructuredDocument], chaptersFromContents: Bool = false) {
        self.documents = documents
        self.chaptersFromContents = chaptersFromContents
    }
}
