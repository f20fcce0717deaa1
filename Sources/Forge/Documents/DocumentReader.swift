/// Reads the text of one source format into a ``StructuredDocument``: blocks (paragraphs,
/// headings, speech) with each scalar's offset in the source, which the splitter then cuts into
/// items. Plain text, Markdown, scripts, HTML and XHTML each have one; an EPUB is a book of XHTML
/// documents (``EPUBReader``).
///
/// A new source format plugs in here: a reader, a case of ``SourceFile/Format``, and a line in
/// ``SourceLoader``.
package protocol DocumentReader: Sendable {
    /// The document `text` holds; `path` names it in the manifest and in messages.
    func read(_ text: String, path: String) throws(DocumentError) -> StructuredDocument
}

extension SourceFile.Format {
    /// The reader of a text-based format (all but EPUB, which is an archive).
    package var textReader: (any DocumentReader)? {
        switch self {
        case .text: PlainTextReader()
        case .markdown: MarkdownReader()
        case .script: ScriptReader()
        case .html: HTMLReader(mode: .html)
        case .xhtml: HTMLReader(mode: .xhtml)
        case .epub: nil
        }
    }
}
