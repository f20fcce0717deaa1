/// Reads HTML and XHTML into blocks of speakable text.
///
/// Block elements (`p`, `div`, `li`, `blockquote`, `td` …) become paragraphs and `h1`–`h6`
/// headings; `script`, `style`, `nav`, `head`, hidden elements (`hidden`, `aria-hidden="true"`,
/// `display: none`), page-break markers, note references and in-flow footnotes are not spoken;
/// character references are decoded; each block keeps its element id and source offsets.
///
/// HTML is read leniently, like a browser, by ``HTMLTokenizer``: unclosed paragraphs and list
/// items close themselves and stray end tags are ignored. XHTML (and EPUB content) is read by
/// libxml2's XML parser (``XMLEventParser``) and must be well formed: a mismatched or unclosed
/// element, an unterminated tag or comment, or an unknown entity is a
/// ``DocumentError/malformedMarkup(file:line:column:problem:)`` with libxml2's line, column and
/// message. What is spoken is decided in one place for both, ``BlockAssembler``.
package struct HTMLReader: DocumentReader {
    package enum Mode: Sendable {
        case html
        case xhtml
    }

    package var mode: Mode
    /// Read Project Gutenberg's header, licence and footer too (`split.keepGutenbergMatter`); by
    /// default its boilerplate sections (`class="pg-boilerplate"`, `id="pg-header"` …) are not
    /// spoken, nor, in older files, the blocks before its `*** START OF …` line and from its
    /// `*** END OF …` line on.
    package var keepsGutenbergMatter: Bool

    package init(mode: Mode, keepsGutenbergMatter: Bool = false) {
        self.mode = mode
        self.keepsGutenbergMatter = keepsGutenbergMatter
    }

    package func read(_ text: String, path: String) throws(DocumentError) -> StructuredDocument {
        var assembler = BlockAssembler(dropsGutenbergMatter: !keepsGutenbergMatter)
        switch mode {
        case .html:
            var tokenizer = HTMLTokenizer(scalars: Array(text.unicodeScalars), path: path, assembler: assembler)
            try tokenizer.run()
            assembler = tokenizer.assembler
        case .xhtml where text.unicodeScalars.allSatisfy(\.isWhiteSpace):
            // An empty content document is nothing to read, not broken XML (libxml2: "Document is empty").
            break
        case .xhtml:
            do {
                try XMLEventParser(decodesHTMLEntities: true).parse(text, into: &assembler)
            } catch {
                throw .malformedMarkup(file: path, line: error.line, column: error.column, problem: error.message)
            }
            assembler.finish()
        }
        var (blocks, blockIndexByID) = (assembler.blocks, assembler.blockIndexByID)
        Self.dropContents(&blocks, &blockIndexByID, linkOnly: assembler.linkOnly)
        if !keepsGutenbergMatter { Self.dropGutenbergMatter(&blocks, &blockIndexByID) }
        return StructuredDocument(
            path: path, language: assembler.language, title: assembler.title, blocks: blocks,
            blockIndexByID: blockIndexByID)
    }

    /// A table of contents is not read aloud: a run of blocks that are links into the book (three or
    /// more; short unlinked blocks such as "CHAPTER I." or page numbers between them allowed), and a
    /// "Contents" title just before it.
    static func dropContents(_ blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int], linkOnly: [Bool]) {
        var drop = Set<Int>()
        var index = 0
        while index < blocks.count {
            guard linkOnly[index] else {
                index += 1
                continue
            }
            var end = index
            var links = 1
            var next = index + 1
            func isShortText(_ block: DocumentBlock) -> Bool {
                if case .heading = block.role { return false }
                return block.text.count <= 16
            }
            while next < blocks.count, linkOnly[next] || isShortText(blocks[next]) {
                if linkOnly[next] {
                    links += 1
                    end = next
                }
                next += 1
            }
            // The last entry's page number.
            while end + 1 < blocks.count, isShortText(blocks[end + 1]),
                blocks[end + 1].foldedText.allSatisfy({ $0.isNumber || "ivxlcdmIVXLCDM.".contains($0) })
            {
                end += 1
            }
            if links >= 3 {
                drop.formUnion(index...end)
                if index > 0, PlainTextReader.isContentsTitle(blocks[index - 1].text) { drop.insert(index - 1) }
            }
            index = end + 1
        }
        remove(drop, from: &blocks, &blockIndexByID)
    }

    /// Removes the blocks at `drop`, keeping every id pointing at the block it named.
    static func remove(_ drop: Set<Int>, from blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int]) {
        guard !drop.isEmpty else { return }
        var newIndex: [Int] = []
        var kept: [DocumentBlock] = []
        for (position, block) in blocks.enumerated() {
            newIndex.append(kept.count)
            if !drop.contains(position) { kept.append(block) }
        }
        blockIndexByID = blockIndexByID.compactMapValues { drop.contains($0) ? nil : newIndex[$0] }
        blocks = kept
    }

    /// Ids of Project Gutenberg's boilerplate elements in its HTML files.
    static let gutenbergIDs: Set<String> = [
        "pg-header", "pg-footer", "pg-machine-header", "pg-start-separator", "pg-end-separator",
    ]

    /// Older Project Gutenberg HTML keeps its header and licence as text: the blocks up to the one
    /// with `*** START OF THE PROJECT GUTENBERG EBOOK …` and from the one with `*** END OF …` go.
    static func dropGutenbergMatter(_ blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int]) {
        func marker(_ block: DocumentBlock, _ word: String) -> Bool {
            guard block.text.count < 20_000 else { return false }
            let text = block.foldedText.uppercased()
            return text.contains("*** \(word) OF THE PROJECT GUTENBERG")
                || text.contains("*** \(word) OF THIS PROJECT GUTENBERG")
        }
        guard let start = blocks.firstIndex(where: { marker($0, "START") }) else { return }
        let end = blocks[(start + 1)...].firstIndex { marker($0, "END") } ?? blocks.count
        remove(Set(0...start).union(end..<blocks.count), from: &blocks, &blockIndexByID)
    }

    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div",
        "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup",
        "hr", "html", "legend", "li", "main", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot",
        "th",
        "thead", "tr", "ul",
    ]
    /// Elements whose content is never spoken.
    static let unspokenElements: Set<String> = [
        "script", "style", "nav", "head", "template", "noscript", "svg", "math", "rt", "rp", "iframe", "object",
        "audio",
        "video", "canvas", "button", "select", "textarea", "datalist",
    ]
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is raw text, not markup.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title"]
    /// `epub:type` / `role` values of content a reader does not read aloud in sequence.
    static let unspokenTypes: Set<String> = [
        "pagebreak", "noteref", "footnote", "endnote", "rearnote", "doc-pagebreak", "doc-noteref", "doc-footnote",
        "doc-endnote", "presentation-only",
    ]
}
