/// Turns a document's elements and text, as a parser meets them, into blocks of speakable text:
/// Forge's rules for what is spoken (``HTMLReader``), kept apart from how the markup is parsed —
/// by libxml2 for XHTML (``XMLEventParser``), by ``HTMLTokenizer`` for HTML.
struct BlockAssembler {
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
        /// Inside front or back matter that is not spoken (``FrontMatter/unspokenTypes``): its kind.
        var matter: String?
    }

    /// Words of front and back matter left unspoken, by kind (`epub:type` titlepage, imprint …).
    private(set) var unspoken = UnspokenMatter()
    /// The text of the unspoken matter being read, counted when its element closes.
    private var matterText: [Unicode.Scalar] = []

    private var stack: [OpenElement] = []
    /// How many elements of each name are open: an end tag for a name that is not open is
    /// answered without searching the stack.
    private var openCounts: [String: Int] = [:]
    private(set) var blocks: [DocumentBlock] = []
    /// For each block: all its text is the text of links into the book (a contents entry's shape).
    private(set) var linkOnly: [Bool] = []
    /// For each block: its links to places in the book, in order (a contents entry's target and title).
    private(set) var links: [[BookLink]] = []
    /// The links of the block being read; the last one is still open while `openLink` is true.
    private var blockLinks: [BookLink] = []
    private var openLink = false
    /// Text after the last link is its tail until a line break.
    private var collectsTail = false
    private var linkScalars = 0
    private var otherScalars = 0
    private(set) var blockIndexByID: [String: Int] = [:]
    private var pendingIDs: [String] = []
    private(set) var language: String?
    private(set) var title: String?
    /// The first `<title>`'s text while it is being read.
    private var titleText: [Unicode.Scalar]?

    private var text: [Unicode.Scalar] = []
    private var origins: [Int] = []
    private var elementID: String?
    private var element: (offset: Int, name: String)?
    private var role: DocumentBlock.Role = .paragraph

    private let dropsGutenbergMatter: Bool
    private let keepsFrontMatter: Bool

    init(dropsGutenbergMatter: Bool, keepsFrontMatter: Bool = false) {
        self.dropsGutenbergMatter = dropsGutenbergMatter
        self.keepsFrontMatter = keepsFrontMatter
    }

    /// Inside an element whose content is not spoken.
    var isHidden: Bool { stack.last?.hidden ?? false }

    /// The name of the innermost open element.
    var innermost: String? { stack.last?.name }

    // MARK: Elements

    /// An element starts at `offset` (its `<`). An empty one (`<br/>`, or a void element in HTML)
    /// is not opened: no ``close(_:)`` follows.
    mutating func open(_ name: String, attributes: [String: String], offset: Int, isEmpty: Bool) {
        if name == "html" {
            language = attributes["xml:lang"] ?? attributes["lang"] ?? language
        }
        if name == "title", title == nil, titleText == nil, !isEmpty { titleText = [] }
        let matter = stack.last?.matter ?? (keepsFrontMatter ? nil : FrontMatter.unspokenType(attributes["epub:type"]))
        let isHidden =
            isHidden || Self.isUnspoken(name, attributes) || matter != nil
            || (dropsGutenbergMatter && Self.isGutenbergMatter(attributes))
        let isBlock = HTMLReader.blockElements.contains(name)
        if !isHidden {
            if isBlock {
                flush()
                if let level = Self.headingLevel(name) {
                    role = .heading(level: level)
                } else if openCounts["hgroup", default: 0] > 0 {
                    // A heading group's subtitle (`<hgroup><h2>I</h2><p>The Period</p></hgroup>`) is heading.
                    role = .heading(level: 6)
                }
                if name != "body", name != "html" {
                    elementID = attributes["id"]
                    element = (offset, name)
                }
            } else if name == "br" {
                append("\n", origin: offset)
                collectsTail = false
            }
            if let id = attributes["id"] {
                pendingIDs.append(id)
                if elementID == nil, !hasText, !isBlock { elementID = id }
            } else if name == "a", let anchor = attributes["name"] {
                // HTML 4's `<a name="chap01">`: a place links point at, though not an id exports use.
                pendingIDs.append(anchor)
            }
        }
        if isEmpty {
            if name == "hr", !isHidden { flush() }
            return
        }
        let opensLink = name == "a" && Self.isBookLink(attributes["href"])
        let inBookLink = (stack.last?.inBookLink ?? false) || opensLink
        if opensLink, !openLink, !isHidden, let href = attributes["href"] {
            let fragment = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first
            blockLinks.append(
                BookLink(target: fragment.map(String.init) ?? "", file: String(href.prefix { $0 != "#" })))
            openLink = true
            collectsTail = false
        }
        stack.append(
            OpenElement(
                name: name, offset: offset, hidden: isHidden, isBlock: isBlock,
                headingLevel: Self.headingLevel(name) ?? stack.last?.headingLevel,
                inBookLink: inBookLink, matter: matter))
        openCounts[name, default: 0] += 1
    }

    /// Closes the innermost open element named `name` and every element opened inside it; false
    /// (and nothing closed) when none is open.
    @discardableResult
    mutating func close(_ name: String) -> Bool {
        guard openCounts[name, default: 0] > 0, let position = stack.lastIndex(where: { $0.name == name }) else {
            return false
        }
        while stack.count > position {
            let closed = stack.removeLast()
            openCounts[closed.name, default: 1] -= 1
            if closed.name == "a", closed.inBookLink, !(stack.last?.inBookLink ?? false) {
                openLink = false
                collectsTail = true
            }
            if let matter = closed.matter, stack.last?.matter == nil {
                unspoken.add(matter, text: matterText)
                matterText.removeAll()
            }
            if closed.name == "title", let titleText {
                title = DocumentBlock(role: .paragraph, text: titleText, origins: [], elementID: nil).foldedText
                self.titleText = nil
            }
            if closed.isBlock, !closed.hidden {
                flush()
                // Text after a block, still inside its parent, belongs to no element of its own.
                element = nil
                elementID = nil
                role = stack.last?.headingLevel.map { .heading(level: $0) } ?? .paragraph
            }
        }
        return true
    }

    // MARK: Text

    mutating func text(_ scalar: Unicode.Scalar, origin: Int) {
        // A title names the document; it is never spoken.
        if innermost == "title" {
            titleText?.append(scalar)
            return
        }
        if !isHidden {
            append(scalar, origin: origin)
        } else if stack.last?.matter != nil {
            matterText.append(scalar)
        }
    }

    private mutating func append(_ scalar: Unicode.Scalar, origin: Int) {
        text.append(scalar)
        origins.append(origin)
        if !scalar.isWhiteSpace {
            if stack.last?.inBookLink ?? false { linkScalars += 1 } else { otherScalars += 1 }
        }
        if openLink, !blockLinks.isEmpty {
            blockLinks[blockLinks.count - 1].text.append(scalar)
        } else if collectsTail, !blockLinks.isEmpty, blockLinks[blockLinks.count - 1].tail.count < 200 {
            blockLinks[blockLinks.count - 1].tail.append(scalar)
        }
    }

    private var hasText: Bool { text.contains { !$0.isWhiteSpace } }

    private mutating func flush() {
        if hasText {
            for id in pendingIDs where blockIndexByID[id] == nil { blockIndexByID[id] = blocks.count }
            pendingIDs.removeAll()
            // Copies of exactly the block's size: the buffers kept for the next block are as long
            // as the longest block so far, and every block sharing them would hold that much.
            blocks.append(
                DocumentBlock(
                    role: role, text: Self.exactCopy(text), origins: Self.exactCopy(origins), elementID: elementID,
                    element: element))
            linkOnly.append(otherScalars == 0 && linkScalars > 0)
            links.append(blockLinks)
            elementID = nil
            element = nil
        }
        text.removeAll(keepingCapacity: true)
        origins.removeAll(keepingCapacity: true)
        (linkScalars, otherScalars) = (0, 0)
        blockLinks.removeAll()
        collectsTail = false
        if openLink { blockLinks.append(BookLink(target: "", file: "")) }
    }

    private static func exactCopy<Element>(_ elements: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(elements.count)
        copy.append(contentsOf: elements)
        return copy
    }

    /// The end of the document: the last block, and ids after it point at it.
    mutating func finish() {
        flush()
        for id in pendingIDs where blockIndexByID[id] == nil && !blocks.isEmpty {
            blockIndexByID[id] = blocks.count - 1
        }
        pendingIDs.removeAll()
    }

    // MARK: Rules

    static func headingLevel(_ name: String) -> Int? {
        guard name.count == 2, name.first == "h", let digit = name.last?.wholeNumberValue, (1...6).contains(digit)
        else { return nil }
        return digit
    }

    static func isUnspoken(_ name: String, _ attributes: [String: String]) -> Bool {
        if HTMLReader.unspokenElements.contains(name) { return true }
        if attributes["hidden"] != nil { return true }
        if attributes["aria-hidden"]?.lowercased() == "true" { return true }
        if let style = attributes["style"]?.lowercased().filter({ !$0.isWhitespace }),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        for key in ["epub:type", "role"] {
            if let types = attributes[key],
                types.split(separator: " ").contains(where: { HTMLReader.unspokenTypes.contains($0.lowercased()) })
            {
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
}

extension BlockAssembler: XMLEventHandler {
    mutating func startElement(_ name: String, attributes: [String: String], offset: Int, isEmpty: Bool) {
        open(
            name.lowercased(),
            attributes: Dictionary(attributes.map { ($0.key.lowercased(), $0.value) }) { first, _ in first },
            offset: offset, isEmpty: isEmpty)
    }

    mutating func endElement(_ name: String) {
        close(name.lowercased())
    }
}
