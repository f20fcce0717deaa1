/// A document read into blocks: an HTML or XHTML file, or one content document of an EPUB.
package struct StructuredDocument: Sendable, Equatable {
    /// Names the document in the manifest and in messages: a file path, or `book.epub!/OEBPS/ch1.xhtml`.
    package var path: String
    /// The document's declared language (`<html lang>`, or the EPUB's `dc:language`), if any.
    package var language: String?
    /// The document's `<title>`, used for a chapter that has no heading.
    package var title: String?
    package var blocks: [DocumentBlock]
    /// Where each element id sits: the index of the first block at or after the element.
    package var blockIndexByID: [String: Int]
    /// What the reader left out as not the book (front and back matter, contents, a licence).
    package var unspoken = UnspokenMatter()
    /// What the reader found doubtful but read anyway (a contents list not found in the body).
    package var warnings: [String] = []
    /// Chapters start where the document's own contents list points (blocks with a `chapterTitle`).
    package var chaptersFromContents = false

    package init(
        path: String, language: String?, title: String?, blocks: [DocumentBlock], blockIndexByID: [String: Int] = [:]
    ) {
        self.path = path
        self.language = language
        self.title = title
        self.blocks = blocks
        self.blockIndexByID = blockIndexByID
    }
}
