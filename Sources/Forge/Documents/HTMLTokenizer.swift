/// Reads HTML leniently, as a browser does, into a ``BlockAssembler``: unclosed paragraphs and
/// list items close themselves, stray end tags are ignored, void elements need no end tag, and
/// character references follow HTML5 (all 2,231 names, legacy names without `;`, Windows-1252
/// numbers).
///
/// Forge's own tokenizer, not libxml2's HTML parser: libxml2 2.9 (Debian 12's) knows HTML 4's
/// 253 entity names and none of HTML5's reference rules, so it reads 2,075 of the 4,617 html5lib
/// reference cases that `CharacterReferenceTests` checks differently from a browser
/// (`scripts/libxml2-html-references.sh` counts them). XHTML is read by libxml2 (``XMLEventParser``).
struct HTMLTokenizer {
    let scalars: [Unicode.Scalar]
    let path: String
    var index = 0
    var assembler: BlockAssembler

    init(scalars: [Unicode.Scalar], path: String, assembler: BlockAssembler) {
        self.scalars = scalars
        self.path = path
        self.assembler = assembler
    }

    mutating func run() throws(DocumentError) {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                try markup()
            } else if scalar == "&" {
                let start = index
                for decoded in reference() { assembler.text(decoded, origin: start) }
            } else {
                assembler.text(scalar, origin: index)
                index += 1
            }
        }
        assembler.finish()
    }

    // MARK: Markup

    mutating func markup() throws(DocumentError) {
        let start = index
        if starts(with: "<!--") {
            guard let end = find("-->", from: index + 4) else {
                index = scalars.count
                return
            }
            index = end + 3
        } else if starts(with: "<![CDATA[") {
            guard let end = find("]]>", from: index + 9) else {
                throw problem(at: start, "a CDATA section is never closed with ]]>")
            }
            for offset in (index + 9)..<end { assembler.text(scalars[offset], origin: offset) }
            index = end + 3
        } else if starts(with: "<!") || starts(with: "<?") {
            guard let end = find(">", from: index + 2) else {
                throw problem(at: start, "a declaration is never closed with >")
            }
            index = end + 1
        } else if starts(with: "</") {
            try endTag()
        } else if index + 1 < scalars.count, scalars[index + 1].properties.isAlphabetic {
            try startTag()
        } else {
            assembler.text("<", origin: index)
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
            if scalars[index] == ">" {
                index += 1
                break
            }
            if scalars[index] == "/" {
                index += 1
                if index < scalars.count, scalars[index] == ">" {
                    selfClosing = true
                    index += 1
                    break
                }
                continue
            }
            let attributeName = readName().lowercased()
            if attributeName.isEmpty {
                index += 1
                continue
            }
            skipSpace()
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                skipSpace()
                value = try readAttributeValue(in: name)
            }
            attributes[attributeName] = value
        }
        closeImplicitly(before: name)
        assembler.open(
            name, attributes: attributes, offset: start, isEmpty: selfClosing || HTMLReader.voidElements.contains(name))
        guard !selfClosing, HTMLReader.rawTextElements.contains(name) else { return }
        // The element's content runs to its end tag, unparsed.
        guard let end = findEndTag(name) else { throw problem(at: start, "<\(name)> is never closed") }
        if name == "title" {
            // A title is escapable raw text: no elements, but references are decoded ("Pride &amp; Prejudice").
            while index < end {
                if scalars[index] == "&" {
                    let origin = index
                    for decoded in reference() { assembler.text(decoded, origin: origin) }
                } else {
                    assembler.text(scalars[index], origin: index)
                    index += 1
                }
            }
        }
        index = end
        while index < scalars.count, scalars[index] != ">" { index += 1 }
        index += 1
        assembler.close(name)
    }

    /// HTML lets a new paragraph or list item close the open one.
    mutating func closeImplicitly(before name: String) {
        guard let last = assembler.innermost else { return }
        let closes: Bool
        switch (last, name) {
        case ("p", _): closes = HTMLReader.blockElements.contains(name)
        case ("li", "li"), ("dt", "dt"), ("dt", "dd"), ("dd", "dt"), ("dd", "dd"), ("option", "option"): closes = true
        default: closes = false
        }
        if closes { assembler.close(last) }
    }

    mutating func endTag() throws(DocumentError) {
        let start = index
        index += 2
        let name = readName().lowercased()
        skipSpace()
        guard index < scalars.count, scalars[index] == ">" else {
            throw problem(at: start, "the end tag </\(name) is never closed with >")
        }
        index += 1
        // A stray end tag (nothing of that name open) is ignored, as browsers do.
        assembler.close(name)
    }

    // MARK: Character references

    /// Decodes the character reference at `index` as HTML5 does: `&name;` and `&#…;`, numbers
    /// without `;` and the legacy names that may drop it (`&copy`, `&amp`, `&nbsp` … — the longest
    /// that prefixes the text, so `&noti;` is "¬i;"), except in an attribute value before `=` or a
    /// letter or digit. Anything else stays as it is.
    mutating func reference(inAttribute: Bool = false) -> [Unicode.Scalar] {
        let start = index
        var end = index + 1
        while end < scalars.count, end - start < 40, scalars[end] != ";", scalars[end] != "&", scalars[end] != "<",
            !scalars[end].isWhiteSpace
        {
            end += 1
        }
        if end < scalars.count, scalars[end] == ";", end > start + 1 {
            let body = String(scalars: scalars[(start + 1)..<end])
            if let decoded = HTMLEntities.decode(reference: body) {
                index = end + 1
                return HTMLEntities.replacingC1Controls(decoded, number: body.hasPrefix("#"))
            }
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
        if inAttribute, next < scalars.count,
            scalars[next] == "=" || scalars[next].properties.isAlphabetic || ("0"..."9").contains(scalars[next])
        {
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
        while position < scalars.count,
            scalars[position].properties.isASCIIHexDigit && (hexadecimal || ("0"..."9").contains(scalars[position]))
        {
            position += 1
        }
        guard position > digitsStart else {
            index += 1
            return ["&"]
        }
        let digits = String(scalars: scalars[digitsStart..<position])
        index = position < scalars.count && scalars[position] == ";" ? position + 1 : position
        let significant = digits.drop { $0 == "0" }
        // More than 8 significant digits is past every scalar; decode answers U+FFFD for those.
        let body = "#" + (hexadecimal ? "x" : "") + (significant.isEmpty ? "0" : String(significant.prefix(9)))
        let decoded = HTMLEntities.decode(reference: body) ?? ["\u{FFFD}"]
        return HTMLEntities.replacingC1Controls(decoded, number: true)
    }

    // MARK: Scanning

    func starts(with prefix: String) -> Bool { scalars.matches(prefix, at: index) }

    func find(_ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        var offset = start
        while offset + pattern.count <= scalars.count {
            if scalars[offset] == pattern[0], Array(scalars[offset..<(offset + pattern.count)]) == pattern {
                return offset
            }
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
                zip(scalars[offset..<(offset + pattern.count)], pattern).allSatisfy({
                    String($0).lowercased() == String($1)
                })
            {
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
            if scalar.isWhiteSpace || scalar == ">" || scalar == "/" || scalar == "=" || scalar == "<" { break }
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
                    value.append(contentsOf: reference(inAttribute: true))
                } else {
                    value.append(scalars[index])
                    index += 1
                }
            }
            guard index < scalars.count else {
                throw problem(at: start, "an attribute value of <\(element)> is never closed with \(quote)")
            }
            index += 1
        } else {
            while index < scalars.count, !scalars[index].isWhiteSpace, scalars[index] != ">" {
                value.append(scalars[index])
                index += 1
            }
        }
        return String(value)
    }

    mutating func skipSpace() {
        while index < scalars.count, scalars[index].isWhiteSpace { index += 1 }
    }

    func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for scalar in scalars[..<min(offset, scalars.count)] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    func problem(at offset: Int, _ description: String) -> DocumentError {
        let position = lineColumn(of: offset)
        return .malformedMarkup(file: path, line: position.line, column: position.column, problem: description)
    }
}
