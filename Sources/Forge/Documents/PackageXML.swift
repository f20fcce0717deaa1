import CLibXML2

/// An EPUB's package files (`container.xml`, the OPF package document, the NCX and the EPUB 3
/// navigation document) read with libxml2: the elements, their attributes and their text, in
/// document order. Names keep their prefix (`dc:title`); attribute names are lowercased.
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
        let bytes = Array(source.utf8)
        let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                xmlReadMemory($0, Int32(clamping: buffer.count), "package.xml", "UTF-8", options)
            }
        }
        guard let document else { return }
        defer { xmlFreeDoc(document) }
        if let root = xmlDocGetRootElement(document) { collect(root, depth: 0) }
    }

    /// Elements whose name, without any prefix, is `localName`.
    func all(_ localName: String) -> [Element] {
        elements.filter { $0.name == localName || $0.name.hasSuffix(":" + localName) }
    }

    func first(_ localName: String) -> Element? {
        elements.first { $0.name == localName || $0.name.hasSuffix(":" + localName) }
    }

    /// Appends `node` and its descendant elements in document order (iteratively: a deeply
    /// nested hostile file must not exhaust the stack).
    private mutating func collect(_ root: xmlNodePtr, depth rootDepth: Int) {
        var stack: [(node: xmlNodePtr, depth: Int)] = [(root, rootDepth)]
        while let (node, depth) = stack.popLast() {
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            var attributes: [String: String] = [:]
            var attribute = node.pointee.properties
            while let current = attribute {
                let name = Self.qualifiedName(current.pointee.name, namespace: current.pointee.ns).lowercased()
                if let value = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                    attributes[name] = String(cString: value)
                    forge_xmlFree(value)
                } else {
                    attributes[name] = ""
                }
                attribute = current.pointee.next
            }
            var text = ""
            if let content = xmlNodeGetContent(node) {
                text = String(cString: content).split(whereSeparator: \.isWhitespace).joined(separator: " ")
                forge_xmlFree(content)
            }
            elements.append(Element(name: Self.qualifiedName(node.pointee.name, namespace: node.pointee.ns), attributes: attributes, depth: depth, text: text))
            var children: [xmlNodePtr] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE { children.append(current) }
                child = current.pointee.next
            }
            stack.append(contentsOf: children.reversed().map { ($0, depth + 1) })
        }
    }

    private static func qualifiedName(_ name: UnsafePointer<xmlChar>?, namespace: xmlNsPtr?) -> String {
        let local = name.map { String(cString: $0) } ?? ""
        guard let prefix = namespace?.pointee.prefix else { return local }
        return String(cString: prefix) + ":" + local
    }
}
