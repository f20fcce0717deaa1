/// What the splitter takes, in reading order: a source read into documents, or the recipe's inline items.
package enum SplitSource: Sendable {
    case document(SourceDocument)
    /// The recipe's inline items, as one chapter titled `title`; `path` is the recipe's.
    case inline([InlineItem], title: String, path: String)

    /// A plain-text, Markdown or script text read by its format's reader (any other format is read as plain text).
    package static func text(path: String, format: SourceFile.Format, text: String) -> SplitSource {
        let reader: any DocumentReader =
            switch format {
            case .markdown: MarkdownReader()
            case .script: ScriptReader()
            default: PlainTextReader()
            }
        // The line-based readers never throw.
        let document =
            (try? reader.read(text, path: path))
            ?? StructuredDocument(path: path, language: nil, title: nil, blocks: [])
        return .document(SourceDocument(documents: [document]))
    }

    /// Documents already read into blocks (an HTML file; an EPUB's content documents).
    package static func structured(_ documents: [StructuredDocument], chaptersFromContents: Bool) -> SplitSource {
        .document(SourceDocument(documents: documents, chaptersFromContents: chaptersFromContents))
    }
}
