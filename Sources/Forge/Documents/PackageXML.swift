/// An EPUB's package files (`container.xml`, the OPF package document, the NCX and the EPUB 3
/// navigation document) read with libxml2 (``XMLEventParser``): the elements, their attributes
/// and their text, in document order. Names keep their prefix (`dc:title`); attribute names are
/// lowercased.
///
/// libxml2 reads CDATA, entities and `>` inside attribute values as XML says. It recovers from
/// errors where it can (a book's package file is not always well formed), never loads external
/// entities or DTDs and never touches the network, so a hostile EPUB cannot make it read a file
/// (`<!ENTITY x SYSTEM "file:///etc/passwd">` stays unexpanded), and it prints nothing.
struct PackageXML {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// Nesting depth: the root element is 0.
        var depth: Int
        /// The element's text, including its descendants', with white space folded.
        var text: String
    }

    private(set) var elements: [Element] = []

    init(_ source: String) {
        var collector = Collector()
        try? XMLEventParser(recovers: true).parse(source, into: &collector)
        elements = collector.elements
    }

    /// Elements whose name, without any prefix, is `localName`.
    func all(_ localName: String) -> [Element] {
        elements.filter { $0.name == localName || $0.name.hasSuffix(":" + localName) }
    }

    func first(_ localName: String) -> Element? {
        elements.first { $0.name == localName || $0.name.hasSuffix(":" + localName) }
    }

    /// Collects the elements; each open element remembers where its text starts in the
    /// document's text so far, so its text (descendants' included) is one slice at its end.
    private struct Collector: XMLEventHandler {
        var elements: [Element] = []
        var open: [(element: Int, textStart: Int)] = []
        var text: [Unicode.Scalar] = []

        mutating func startElement(_ name: String, attributes: [String: String], offset: Int, isEmpty: Bool) {
            let lowercased = Dictionary(attributes.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
            elements.append(Element(name: name, attributes: lowercased, depth: open.count, text: ""))
            if !isEmpty { open.append((elements.count - 1, text.count)) }
        }

        mutating func endElement(_ name: String) {
            guard let (element, textStart) = open.popLast() else { return }
            elements[element].text = String(foldingWhiteSpaceOf: text[textStart...])
            if open.isEmpty { text.removeAll() }
        }

        mutating func text(_ scalar: Unicode.Scalar, origin: Int) {
            if !open.isEmpty { text.append(scalar) }
        }
    }
}
