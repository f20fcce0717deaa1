/// Reads HTML and XHTML into blocks of speakable text.
///
/// Block elements (`p`, `div`, `li`, `blockquote`, `td` …) become paragraphs and `h1`–`h6`
/// headings; `script`, `style`, `nav`, `head`, hidden elements (`hidden`, `aria-hidden="true"`,
/// `display: none`), page-break markers, note references and in-flow footnotes are not spoken;
/// character references are decoded; each block keeps its element id and source offsets.
///
/// HTML is read leniently, like a browser: unclosed paragraphs and list items close themselves
/// and stray end tags are ignored. XHTML (and EPUB content) must be well formed: a mismatched or
/// unclosed element, an unterminated tag or comment, or an unknown entity is a
/// ``DocumentError/malformedMarkup(file:line:column:problem:)`` with its line and column.
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
        var parser = Parser(scalars: Array(text.unicodeScalars), path: path, strict: mode == .xhtml, dropsGutenbergMatter: !keepsGutenbergMatter)
        try parser.run()
        var (blocks, blockIndexByID) = (parser.blocks, parser.blockIndexByID)
        Self.dropContents(&blocks, &blockIndexByID, linkOnly: parser.linkOnly)
        if !keepsGutenbergMatter { Self.dropGutenbergMatter(&blocks, &blockIndexByID) }
        return StructuredDocument(path: path, language: parser.language, title: parser.title, blocks: blocks, blockIndexByID: blockIndexByID)
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
            while end + 1 < blocks.count, isShortText(blocks[end + 1]), blocks[end + 1].foldedText.allSatisfy({ $0.isNumber || "ivxlcdmIVXLCDM.".contains($0) }) {
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
    static let gutenbergIDs: Set<String> = ["pg-header", "pg-footer", "pg-machine-header", "pg-start-separator", "pg-end-separator"]

    /// Older Project Gutenberg HTML keeps its header and licence as text: the blocks up to the one
    /// with `*** START OF THE PROJECT GUTENBERG EBOOK …` and from the one with `*** END OF …` go.
    static func dropGutenbergMatter(_ blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int]) {
        func marker(_ block: DocumentBlock, _ word: String) -> Bool {
            guard block.text.count < 20_000 else { return false }
            let text = block.foldedText.uppercased()
            return text.contains("*** \(word) OF THE PROJECT GUTENBERG") || text.contains("*** \(word) OF THIS PROJECT GUTENBERG")
        }
        guard let start = blocks.firstIndex(where: { marker($0, "START") }) else { return }
        let end = blocks[(start + 1)...].firstIndex { marker($0, "END") } ?? blocks.count
        remove(Set(0...start).union(end..<blocks.count), from: &blocks, &blockIndexByID)
    }

    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
        "hr", "html", "legend", "li", "main", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "ul",
    ]
    /// Elements whose content is never spoken.
    static let unspokenElements: Set<String> = [
        "script", "style", "nav", "head", "template", "noscript", "svg", "math", "rt", "rp", "iframe", "object", "audio",
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

    private struct OpenElement {
        var name: String
        var offset: Int
        var hidden: Bool
        var isBlock: Bool
        /// The level of the innermost heading this element is in (itself included), so the role
        /// after a block closes is known without walking the stack (which made deep nesting quadratic).
        var headingLevel: Int?
        /// Inside a link to a place in the book (`<a href="#chapter-1">`, `chapter-1.xhtml`).
        var inBookLink = false
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        let path: String
        let strict: Bool
        var index = 0
        var stack: [OpenElement] = []
        /// How many elements of each name are open: an end tag for a name that is not open is
        /// answered without searching the stack.
        var openCounts: [String: Int] = [:]
        var blocks: [DocumentBlock] = []
        /// For each block: all its text is the text of links into the book (a contents entry's shape).
        var linkOnly: [Bool] = []
        var linkScalars = 0
        var otherScalars = 0
        var blockIndexByID: [String: Int] = [:]
        var pendingIDs: [String] = []
        var language: String?
        var title: String?

        var text: [Unicode.Scalar] = []
        var origins: [Int] = []
        var elementID: String?
        var element: (offset: Int, name: String)?
        var role: DocumentBlock.Role = .paragraph

        let dropsGutenbergMatter: Bool

        init(scalars: [Unicode.Scalar], path: String, strict: Bool, dropsGutenbergMatter: Bool) {
            self.scalars = scalars
            self.path = path
            self.strict = strict
            self.dropsGutenbergMatter = dropsGutenbergMatter
        }

        var hidden: Bool { stack.last?.hidden ?? false }

        mutating func run() throws(DocumentError) {
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "<" {
                    try markup()
                } else if scalar == "&" {
                    let start = index
                    let decoded = try reference()
                    if !hidden { append(decoded, origin: start) }
                } else {
                    if !hidden { append([scalar], origin: index) }
                    index += 1
                }
            }
            if strict, let open = stack.last {
                throw problem(at: open.offset, "<\(open.name)> is never closed")
            }
            flush()
            for id in pendingIDs where blockIndexByID[id] == nil && !blocks.isEmpty {
                blockIndexByID[id] = blocks.count - 1
            }
        }

        // MARK: Text and blocks

        mutating func append(_ decoded: [Unicode.Scalar], origin: Int) {
            let inBookLink = stack.last?.inBookLink ?? false
            for scalar in decoded {
                text.append(scalar)
                origins.append(origin)
                if !scalar.properties.isWhitespace {
                    if inBookLink { linkScalars += 1 } else { otherScalars += 1 }
                }
            }
        }

        var hasText: Bool { text.contains { !$0.properties.isWhitespace } }

        mutating func flush() {
            if hasText {
                for id in pendingIDs where blockIndexByID[id] == nil { blockIndexByID[id] = blocks.count }
                pendingIDs.removeAll()
                blocks.append(DocumentBlock(role: role, text: text, origins: origins, elementID: elementID, element: element))
                linkOnly.append(otherScalars == 0 && linkScalars > 0)
                elementID = nil
                element = nil
            }
            text.removeAll(keepingCapacity: true)
            origins.removeAll(keepingCapacity: true)
            (linkScalars, otherScalars) = (0, 0)
        }

        /// The role of text after a block ends: a heading's only while still inside it.
        mutating func restoreRole() {
            role = stack.last?.headingLevel.map { .heading(level: $0) } ?? .paragraph
        }

        func headingLevel(_ name: String) -> Int? {
            guard name.count == 2, name.first == "h", let digit = name.last?.wholeNumberValue, (1...6).contains(digit) else { return nil }
            return digit
        }

        // MARK: Markup

        mutating func markup() throws(DocumentError) {
            let start = index
            if starts(with: "<!--") {
                guard let end = find("-->", from: index + 4) else {
                    if strict { throw problem(at: start, "a comment is never closed with -->") }
                    index = scalars.count
                    return
                }
                index = end + 3
            } else if starts(with: "<![CDATA[") {
                guard let end = find("]]>", from: index + 9) else { throw problem(at: start, "a CDATA section is never closed with ]]>") }
                if !hidden {
                    for offset in (index + 9)..<end { append([scalars[offset]], origin: offset) }
                }
                index = end + 3
            } else if starts(with: "<!") || starts(with: "<?") {
                guard let end = find(">", from: index + 2) else { throw problem(at: start, "a declaration is never closed with >") }
                index = end + 1
            } else if starts(with: "</") {
                try endTag()
            } else if index + 1 < scalars.count, scalars[index + 1].properties.isAlphabetic {
                try startTag()
            } else {
                if strict { throw problem(at: start, "a bare \"<\" in text (write &lt;)") }
                if !hidden { append(["<"], origin: index) }
                index += 1
            }
        }

        mutating func startTag() throws(DocumentError) {
            let start = index
            index += 1
            let name = readName().lowercased()
            var attributes: [String: String] = [:]
            var selfClosing = false
            while true {
                skipSpace()
                guard index < scalars.count else { throw problem(at: start, "the tag <\(name) is never closed with >") }
                if scalars[index] == ">" { index += 1; break }
                if scalars[index] == "/" {
                    index += 1
                    if index < scalars.count, scalars[index] == ">" { selfClosing = true; index += 1; break }
                    continue
                }
                let attributeName = readName().lowercased()
                if attributeName.isEmpty {
                    if strict { throw problem(at: index, "an unexpected \"\(scalars[index])\" inside the tag <\(name)>") }
                    index += 1
                    continue
                }
                skipSpace()
                var value = ""
                if index < scalars.count, scalars[index] == "=" {
                    index += 1
                    skipSpace()
                    value = try readAttributeValue(in: name)
                } else if strict {
                    throw problem(at: index, "the attribute \(attributeName) of <\(name)> has no value")
                }
                attributes[attributeName] = value
            }
            try open(name, attributes: attributes, selfClosing: selfClosing, offset: start)
        }

        mutating func open(_ name: String, attributes: [String: String], selfClosing: Bool, offset: Int) throws(DocumentError) {
            if name == "html" {
                language = attributes["xml:lang"] ?? attributes["lang"] ?? language
            }
            if !strict { closeImplicitly(before: name) }
            let isHidden = hidden || Self.isUnspoken(name, attributes) || (dropsGutenbergMatter && Self.isGutenbergMatter(attributes))
            let isBlock = HTMLReader.blockElements.contains(name)
            if !isHidden {
                if isBlock {
                    flush()
                    if let level = headingLevel(name) { role = .heading(level: level) }
                    if name != "body", name != "html" {
                        elementID = attributes["id"]
                        element = (offset, name)
                    }
                } else if name == "br" {
                    append(["\n"], origin: offset)
                }
                if let id = attributes["id"] {
                    pendingIDs.append(id)
                    if elementID == nil, !hasText, !isBlock { elementID = id }
                }
            }
            let isVoid = selfClosing || (!strict && HTMLReader.voidElements.contains(name))
            if isVoid {
                if name == "hr", !isHidden { flush() }
                return
            }
            if HTMLReader.rawTextElements.contains(name) {
                // The element's content runs to its end tag, unparsed.
                guard let end = findEndTag(name) else { throw problem(at: offset, "<\(name)> is never closed") }
                if name == "title", title == nil {
                    // A title is escapable raw text: no elements, but references are decoded ("Pride &amp; Prejudice").
                    let resume = index
                    var decoded: [Unicode.Scalar] = []
                    while index < end {
                        if scalars[index] == "&" {
                            decoded += try reference()
                        } else {
                            decoded.append(scalars[index])
                            index += 1
                        }
                    }
                    index = resume
                    title = DocumentBlock(role: .paragraph, text: decoded, origins: [], elementID: nil).foldedText
                }
                index = end
                while index < scalars.count, scalars[index] != ">" { index += 1 }
                index += 1
                return
            }
            let inBookLink = (stack.last?.inBookLink ?? false) || (name == "a" && Self.isBookLink(attributes["href"]))
            stack.append(OpenElement(
                name: name, offset: offset, hidden: isHidden, isBlock: isBlock, headingLevel: headingLevel(name) ?? stack.last?.headingLevel,
                inBookLink: inBookLink))
            openCounts[name, default: 0] += 1
        }

        static func isUnspoken(_ name: String, _ attributes: [String: String]) -> Bool {
            if HTMLReader.unspokenElements.contains(name) { return true }
            if attributes["hidden"] != nil { return true }
            if attributes["aria-hidden"]?.lowercased() == "true" { return true }
            if let style = attributes["style"]?.lowercased().filter({ !$0.isWhitespace }),
               style.contains("display:none") || style.contains("visibility:hidden") {
                return true
            }
            for key in ["epub:type", "role"] {
                if let types = attributes[key], types.split(separator: " ").contains(where: { HTMLReader.unspokenTypes.contains($0.lowercased()) }) {
                    return true
                }
            }
            return false
        }

        /// A link to a place in the book, not to the web or an address.
        static func isBookLink(_ href: String?) -> Bool {
            guard let href = href.map({ String($0.drop { $0 == " " }).lowercased() }), !href.isEmpty else { return false }
            return !["http:", "https:", "mailto:", "ftp:", "tel:", "javascript:", "data:"].contains { href.hasPrefix($0) }
        }

        static func isGutenbergMatter(_ attributes: [String: String]) -> Bool {
            if let id = attributes["id"], HTMLReader.gutenbergIDs.contains(id) { return true }
            return attributes["class"]?.split(separator: " ").contains("pg-boilerplate") ?? false
        }

        /// HTML lets a new paragraph or list item close the open one.
        mutating func closeImplicitly(before name: String) {
            guard let last = stack.last else { return }
            let closes: Bool
            switch (last.name, name) {
            case ("p", _): closes = HTMLReader.blockElements.contains(name)
            case ("li", "li"), ("dt", "dt"), ("dt", "dd"), ("dd", "dt"), ("dd", "dd"), ("option", "option"): closes = true
            default: closes = false
            }
            if closes { close(stack.count - 1) }
        }

        mutating func endTag() throws(DocumentError) {
            let start = index
            index += 2
            let name = readName().lowercased()
            skipSpace()
            guard index < scalars.count, scalars[index] == ">" else { throw problem(at: start, "the end tag </\(name) is never closed with >") }
            index += 1
            guard openCounts[name, default: 0] > 0, let position = stack.lastIndex(where: { $0.name == name }) else {
                if strict { throw problem(at: start, "</\(name)> closes an element that is not open") }
                return
            }
            if strict, position != stack.count - 1 {
                let open = stack[stack.count - 1]
                throw problem(at: start, "</\(name)> closes <\(name)>, but <\(open.name)> opened at line \(lineColumn(of: open.offset).line) is still open")
            }
            close(position)
        }

        mutating func close(_ position: Int) {
            while stack.count > position {
                let closed = stack.removeLast()
                openCounts[closed.name, default: 1] -= 1
                if closed.isBlock, !closed.hidden {
                    flush()
                    // Text after a block, still inside its parent, belongs to no element of its own.
                    element = nil
                    elementID = nil
                    restoreRole()
                }
            }
        }

        // MARK: Character references

        /// Decodes the character reference at `index` as HTML5 does: `&name;` and `&#…;`; in HTML
        /// (not XHTML) also numbers without `;` and the legacy names that may drop it (`&copy`,
        /// `&amp`, `&nbsp` … — the longest that prefixes the text, so `&noti;` is "¬i;"), except in
        /// an attribute value before `=` or a letter or digit. Anything else stays as it is.
        mutating func reference(inAttribute: Bool = false) throws(DocumentError) -> [Unicode.Scalar] {
            let start = index
            var end = index + 1
            while end < scalars.count, end - start < 40, scalars[end] != ";", scalars[end] != "&", scalars[end] != "<",
                  !scalars[end].properties.isWhitespace {
                end += 1
            }
            if end < scalars.count, scalars[end] == ";", end > start + 1 {
                let body = String(String.UnicodeScalarView(scalars[(start + 1)..<end]))
                if let decoded = HTMLEntities.decode(reference: body) {
                    index = end + 1
                    return strict ? decoded : HTMLEntities.replacingC1Controls(decoded, number: body.hasPrefix("#"))
                }
                if strict {
                    index = end + 1
                    throw problem(at: start, body.hasPrefix("#") ? "&\(body); is not a character number" : "&\(body); is not a known entity")
                }
            }
            guard !strict else {
                index += 1
                return ["&"]
            }
            if start + 1 < scalars.count, scalars[start + 1] == "#" {
                return numberWithoutSemicolon(from: start)
            }
            let candidates = scalars[(start + 1)..<min(scalars.count, start + 1 + HTMLEntities.longestLegacyName)]
            guard let (length, decoded) = HTMLEntities.legacyPrefix(of: Array(candidates)) else {
                index += 1
                return ["&"]
            }
            let next = start + 1 + length
            if inAttribute, next < scalars.count, scalars[next] == "=" || scalars[next].properties.isAlphabetic || ("0"..."9").contains(scalars[next]) {
                index += 1
                return ["&"]
            }
            index = next
            return decoded
        }

        /// `&#38`, `&#x26` (with or without `;`, however many digits): the number, decoded as HTML does.
        private mutating func numberWithoutSemicolon(from start: Int) -> [Unicode.Scalar] {
            var position = start + 2
            let hexadecimal = position < scalars.count && (scalars[position] == "x" || scalars[position] == "X")
            if hexadecimal { position += 1 }
            let digitsStart = position
            while position < scalars.count, scalars[position].properties.isASCIIHexDigit && (hexadecimal || ("0"..."9").contains(scalars[position])) {
                position += 1
            }
            guard position > digitsStart else {
                index += 1
                return ["&"]
            }
            let digits = String(String.UnicodeScalarView(scalars[digitsStart..<position]))
            index = position < scalars.count && scalars[position] == ";" ? position + 1 : position
            let significant = digits.drop { $0 == "0" }
            // More than 8 significant digits is past every scalar; decode answers U+FFFD for those.
            let body = "#" + (hexadecimal ? "x" : "") + (significant.isEmpty ? "0" : String(significant.prefix(9)))
            let decoded = HTMLEntities.decode(reference: body) ?? ["\u{FFFD}"]
            return HTMLEntities.replacingC1Controls(decoded, number: true)
        }

        // MARK: Scanning

        func starts(with prefix: String) -> Bool {
            var offset = index
            for scalar in prefix.unicodeScalars {
                guard offset < scalars.count, scalars[offset] == scalar else { return false }
                offset += 1
            }
            return true
        }

        func find(_ needle: String, from start: Int) -> Int? {
            let pattern = Array(needle.unicodeScalars)
            var offset = start
            while offset + pattern.count <= scalars.count {
                if scalars[offset] == pattern[0], Array(scalars[offset..<(offset + pattern.count)]) == pattern { return offset }
                offset += 1
            }
            return nil
        }

        /// The offset of `</name` (any case) from `index`.
        func findEndTag(_ name: String) -> Int? {
            let pattern = Array("</\(name)".unicodeScalars)
            var offset = index
            while offset + pattern.count <= scalars.count {
                if scalars[offset] == "<",
                   zip(scalars[offset..<(offset + pattern.count)], pattern).allSatisfy({ String($0).lowercased() == String($1) }) {
                    return offset
                }
                offset += 1
            }
            return nil
        }

        mutating func readName() -> String {
            var name = String.UnicodeScalarView()
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar.properties.isWhitespace || scalar == ">" || scalar == "/" || scalar == "=" || scalar == "<" { break }
                if scalar == "\"" || scalar == "'" { break }
                name.append(scalar)
                index += 1
            }
            return String(name)
        }

        mutating func readAttributeValue(in element: String) throws(DocumentError) -> String {
            guard index < scalars.count else { return "" }
            let quote = scalars[index]
            var value = String.UnicodeScalarView()
            if quote == "\"" || quote == "'" {
                let start = index
                index += 1
                while index < scalars.count, scalars[index] != quote {
                    if scalars[index] == "&" {
                        value.append(contentsOf: try reference(inAttribute: true))
                    } else {
                        value.append(scalars[index])
                        index += 1
                    }
                }
                guard index < scalars.count else { throw problem(at: start, "an attribute value of <\(element)> is never closed with \(quote)") }
                index += 1
            } else {
                if strict { throw problem(at: index, "an attribute value of <\(element)> is not quoted") }
                while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != ">" {
                    value.append(scalars[index])
                    index += 1
                }
            }
            return String(value)
        }

        mutating func skipSpace() {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        }

        func lineColumn(of offset: Int) -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            for scalar in scalars[..<min(offset, scalars.count)] {
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            return (line, column)
        }

        func problem(at offset: Int, _ description: String) -> DocumentError {
            let position = lineColumn(of: offset)
            return .malformedMarkup(file: path, line: position.line, column: position.column, problem: description)
        }
    }
}
