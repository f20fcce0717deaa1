import Foundation

/// Markdown: `#`/`##` headings start chapters and deeper ones are section headings; emphasis and
/// links are reduced to their text; code blocks, comments, front matter and images are skipped;
/// list items and block quotes are paragraphs of their own.
public struct MarkdownReader: DocumentReader {
    public init() {}

    public func read(_ text: String, path: String) -> StructuredDocument {
        let scalars = Array(text.unicodeScalars)
        let markup = MarkdownMarkup(scalars)
        // White space is kept even inside markup, so the words either side stay apart.
        let skip = { (index: Int) in !scalars[index].isSpaceOrControl && (markup.hidden[index] || Self.isInlineMarkup(scalars, index)) }
        var blocks: [DocumentBlock] = []
        var current: [Range<Int>] = []
        var inFence = false
        var inFrontMatter = false
        var seenContent = false
        func flush() {
            if !current.isEmpty { blocks.append(TextLines.paragraph(scalars, lines: current, skip: skip)) }
            current = []
        }
        for line in TextLines.lines(scalars) {
            let trimmed = SentenceSegmenter.trim(scalars, line)
            if let trimmed, Self.isFrontMatterFence(scalars, trimmed), inFrontMatter || !seenContent {
                // YAML front matter: from a "---" first line to the next "---".
                inFrontMatter.toggle()
                seenContent = true
                continue
            }
            if inFrontMatter { continue }
            if trimmed != nil { seenContent = true }
            if let trimmed, Self.startsWithFence(scalars, trimmed) {
                flush()
                inFence.toggle()
                continue
            }
            if inFence { continue }
            // A line of nothing but markup (a comment, a link definition, a bare ">") ends a paragraph.
            guard let trimmed, trimmed.contains(where: { !markup.hidden[$0] && !scalars[$0].properties.isWhitespace }) else {
                flush()
                continue
            }
            if trimmed.contains(where: markup.listItemStarts.contains) {
                // Each list item is spoken as its own paragraph.
                flush()
            }
            if let (level, title) = TextLines.markdownHeading(scalars, trimmed, hidden: { markup.hidden[$0] }) {
                flush()
                blocks.append(TextLines.heading(scalars, indices: title, level: level))
                continue
            }
            current.append(trimmed)
        }
        flush()
        return StructuredDocument(path: path, language: nil, title: nil, blocks: blocks)
    }

    static func isFrontMatterFence(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> Bool {
        line.count == 3 && scalars[line].allSatisfy { $0 == "-" }
    }

    static func startsWithFence(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> Bool {
        guard line.count >= 3 else { return false }
        let head = scalars[line.lowerBound..<line.lowerBound + 3]
        return head.allSatisfy { $0 == "`" } || head.allSatisfy { $0 == "~" }
    }

    /// Emphasis and code markers: `*`, `` ` ``, and `_` unless it joins two word characters (snake_case).
    static func isInlineMarkup(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
        let scalar = scalars[index]
        if scalar == "*" || scalar == "`" { return true }
        if scalar == "_" {
            let before = index > 0 ? scalars[index - 1] : " "
            let after = index + 1 < scalars.count ? scalars[index + 1] : " "
            return !(Tokenizer.isWordScalar(before) && Tokenizer.isWordScalar(after))
        }
        return false
    }
}
