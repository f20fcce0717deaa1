/// A small, forgiving reader for an EPUB's package files (`container.xml`, the OPF package
/// document, the NCX and the EPUB 3 navigation document): the elements, their attributes and
/// their text, in document order. Names keep their prefix (`dc:title`); attribute names are lowercased.
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
        let scalars = Array(source.unicodeScalars)
        var open: [Int] = []
        var index = 0
        while index < scalars.count {
            if scalars[index] != "<" {
                var run = String.UnicodeScalarView()
                while index < scalars.count, scalars[index] != "<" {
                    run.append(scalars[index])
                    index += 1
                }
                let text = Self.decode(String(run))
                for position in open { elements[position].text += text }
                continue
            }
            if Self.matches(scalars, index, "<!--") {
                index = Self.find(scalars, "-->", from: index).map { $0 + 3 } ?? scalars.count
                continue
            }
            guard let close = Self.find(scalars, ">", from: index) else { break }
            let tag = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            index = close + 1
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                let name = tag.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
                if let position = open.lastIndex(where: { elements[$0].name == name }) { open.removeSubrange(position...) }
                continue
            }
            let selfClosing = tag.hasSuffix("/")
            let body = selfClosing ? String(tag.dropLast()) : tag
            let name = String(body.prefix { !$0.isWhitespace })
            elements.append(Element(name: name, attributes: Self.attributes(body.dropFirst(name.count)), depth: open.count, text: ""))
            if !selfClosing { open.append(elements.count - 1) }
        }
        for position in elements.indices {
            elements[position].text = elements[position].text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    /// Elements whose name, without any prefix, is `localName`.
    func all(_ localName: String) -> [Element] {
        elements.filter { $0.name == localName || $0.name.hasSuffix(":" + localName) }
    }

    func first(_ localName: String) -> Element? {
        elements.first { $0.name == localName || $0.name.hasSuffix(":" + localName) }
    }

    private static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text[...]
        while true {
            rest = rest.drop { $0.isWhitespace }
            let name = rest.prefix { $0 != "=" && !$0.isWhitespace }
            guard !name.isEmpty else { break }
            rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
            guard rest.first == "=" else { result[name.lowercased()] = ""; continue }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
            rest = rest.dropFirst()
            let value = rest.prefix { $0 != quote }
            result[name.lowercased()] = decode(String(value))
            rest = rest.dropFirst(value.count + 1)
        }
        return result
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            if let semicolon = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semicolon) < 40 {
                let body = String(rest[rest.index(after: rest.startIndex)..<semicolon])
                if let decoded = HTMLEntities.decode(reference: body) {
                    result += String(String.UnicodeScalarView(decoded))
                    rest = rest[rest.index(after: semicolon)...]
                    continue
                }
            }
            result += "&"
            rest = rest.dropFirst()
        }
        return result + rest
    }

    private static func matches(_ scalars: [Unicode.Scalar], _ index: Int, _ prefix: String) -> Bool {
        let pattern = Array(prefix.unicodeScalars)
        return index + pattern.count <= scalars.count && Array(scalars[index..<(index + pattern.count)]) == pattern
    }

    private static func find(_ scalars: [Unicode.Scalar], _ needle: String, from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            if matches(scalars, index, needle) { return index }
            index += 1
        }
        return nil
    }
}
