/// A source as the splitter receives it: plain text or Markdown still to be cut into blocks, or
/// documents already read into blocks (an HTML or XHTML file; an EPUB's content documents).
public enum SourceDocument: Sendable {
    case text(path: String, format: SourceFile.Format, text: String)
    /// `chaptersFromContents`: chapters start where the book's table of contents says (blocks with
    /// a `chapterTitle`), not at `h1`/`h2` headings.
    case structured([StructuredDocument], chaptersFromContents: Bool)
}
