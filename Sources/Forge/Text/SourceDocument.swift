/// A source as the splitter receives it: plain text, Markdown or a script still to be cut into blocks,
/// the recipe's inline items, or
/// documents already read into blocks (an HTML or XHTML file; an EPUB's content documents).
public enum SourceDocument: Sendable {
    case text(path: String, format: SourceFile.Format, text: String)
    /// `chaptersFromContents`: chapters start where the book's table of contents says (blocks with
    /// a `chapterTitle`), not at `h1`/`h2` headings.
    case structured([StructuredDocument], chaptersFromContents: Bool)
    /// The recipe's inline items, as one chapter titled `title`; `path` is the recipe's.
    case inline([InlineItem], title: String, path: String)
}
