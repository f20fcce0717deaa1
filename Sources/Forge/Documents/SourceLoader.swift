import Foundation

/// Reads a recipe's sources, whatever their format, into what the splitter takes.
package struct SourceLoader: Sendable {
    /// Bounds on expanding EPUB archives.
    package var limits: EPUBReader.Limits
    /// Keep Project Gutenberg front and back matter (``PlainTextReader/keepsGutenbergMatter``, ``HTMLReader/keepsGutenbergMatter``).
    package var keepsGutenbergMatter: Bool
    /// The recipe's heading rules for plain text (``HeadingPatterns``).
    package var headingPatterns: HeadingPatterns?
    /// Read plain-text sources as Markdown (`"headings": "markdown"`: `#` lines are the headings).
    package var readsTextAsMarkdown = false
    /// Speak front and back matter (title pages, imprints, contents, colophons) too.
    package var keepsFrontMatter = false

    package init(
        limits: EPUBReader.Limits = EPUBReader.Limits(), keepsGutenbergMatter: Bool = false,
        headingPatterns: HeadingPatterns? = nil
    ) {
        self.limits = limits
        self.keepsGutenbergMatter = keepsGutenbergMatter
        self.headingPatterns = headingPatterns
    }

    /// The sources in reading order, plus the first language a document declares (`<html lang>`,
    /// `dc:language`) and how each source was read.
    package func load(_ sources: [SourceFile]) throws -> (
        documents: [SourceDocument], declaredLanguage: String?, readings: [SourceReading]
    ) {
        var documents: [SourceDocument] = []
        var readings: [SourceReading] = []
        var language: String?
        for source in sources {
            let name = source.displayPath
            let reader: (any DocumentReader)? =
                switch source.format {
                case .text where readsTextAsMarkdown: MarkdownReader()
                case .text:
                    PlainTextReader(
                        keepsGutenbergMatter: keepsGutenbergMatter, headingPatterns: headingPatterns,
                        keepsFrontMatter: keepsFrontMatter)
                case .html:
                    HTMLReader(
                        mode: .html, keepsGutenbergMatter: keepsGutenbergMatter, keepsFrontMatter: keepsFrontMatter)
                case .xhtml:
                    HTMLReader(
                        mode: .xhtml, keepsGutenbergMatter: keepsGutenbergMatter, keepsFrontMatter: keepsFrontMatter)
                default: source.format.textReader
                }
            if let reader {
                let decoded = try SourceReader.decodeText(
                    source.standardInput ?? SourceReader.bytes(of: source.url), file: name)
                let document = try reader.read(decoded.text, path: name)
                language = language ?? document.language
                documents.append(
                    SourceDocument(documents: [document], chaptersFromContents: document.chaptersFromContents))
                readings.append(
                    SourceReading(
                        path: name, encoding: decoded.encoding, unspokenWords: document.unspoken.words,
                        unspokenKinds: document.unspoken.kinds, warnings: document.warnings))
            } else {
                let reader = EPUBReader(
                    limits: limits, include: source.include, exclude: source.exclude,
                    keepsGutenbergMatter: keepsGutenbergMatter, keepsFrontMatter: keepsFrontMatter)
                let book =
                    try source.standardInput.map { data throws(DocumentError) in try reader.read(data, name: name) }
                    ?? reader.read(source.url, name: name)
                language = language ?? book.language ?? book.documents.lazy.compactMap(\.language).first
                documents.append(
                    SourceDocument(documents: book.documents, chaptersFromContents: book.chaptersFromContents))
                let unspoken = book.documents.reduce(into: UnspokenMatter()) { $0.add($1.unspoken) }
                readings.append(
                    SourceReading(
                        path: name, encoding: nil, unspokenWords: unspoken.words, unspokenKinds: unspoken.kinds,
                        warnings: book.documents.flatMap(\.warnings)))
            }
        }
        return (documents, language, readings)
    }

    /// What the sources declare of themselves, read cheaply and without reporting problems (reading
    /// them properly reports those): the first language any of them declares, what a recipe without
    /// `language` speaks; and the first source's title and author — an EPUB's `dc:title` and
    /// `dc:creator`, a Project Gutenberg header's "Title:" and "Author:" (``GutenbergHeader``), an
    /// HTML document's `<title>`, else the file's name (nil for standard input) — what a recipe
    /// without them names its exports after and credits. Each file is opened once for all.
    package static func declared(of sources: [SourceFile]) -> (language: String?, title: String?, author: String?) {
        var language: String?
        var title: String?
        var author: String?
        for (index, source) in sources.enumerated() where language == nil || index == 0 {
            switch source.format {
            case .script:
                continue
            case .text, .markdown:
                guard index == 0, let data = source.standardInput ?? (try? SourceReader.bytes(of: source.url)) else {
                    continue
                }
                let header = GutenbergHeader(head: textHead(data))
                (title, author) = (header?.title, header?.author)
            case .html, .xhtml:
                guard let data = source.standardInput ?? (try? SourceReader.bytes(of: source.url)) else { continue }
                // The <html> start tag, the <title> and a Gutenberg header are near the top; reading
                // the whole document for them would double the split's work.
                let head = String(decoding: data.prefix(8192), as: UTF8.self)
                language = language ?? htmlLanguage(head)
                guard index == 0 else { continue }
                let header = GutenbergHeader(head: head)
                title = header?.title ?? (try? HTMLReader(mode: .html).read(head, path: "head"))?.title
                author = header?.author
            case .epub:
                let declared = EPUBReader().declared(source.url, data: source.standardInput, name: source.displayPath)
                language = language ?? declared.language
                if index == 0 { (title, author) = (declared.title, declared.author) }
            }
        }
        let folded = title.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        if let folded, !folded.isEmpty { return (language, folded, author) }
        guard let first = sources.first, first.standardInput == nil else { return (language, nil, author) }
        return (language, first.url.deletingPathExtension().lastPathComponent, author)
    }

    /// The first few kilobytes of a text file, in its encoding (``TextEncoding``) when they are no UTF-8.
    static func textHead(_ data: Data) -> String {
        let head = data.prefix(8192)
        let text = String(decoding: head, as: UTF8.self)
        // A character cut at the end is no sign of another encoding.
        guard text.dropLast().contains("\u{FFFD}") else { return text }
        return (try? TextEncoding.decode(head, file: "head"))?.text ?? text
    }

    static func htmlLanguage(_ head: String) -> String? {
        guard let tag = head.range(of: "<html", options: .caseInsensitive),
            let close = head[tag.upperBound...].firstIndex(of: ">")
        else { return nil }
        // The start tag alone, read as HTML (its attributes may be unquoted).
        let language = try? HTMLReader(mode: .html).read("<html" + head[tag.upperBound..<close] + ">", path: "head")
            .language
        return language?.isEmpty == false ? language : nil
    }
}
