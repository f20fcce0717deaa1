import CLibXML2
import Foundation

/// What ``XMLEventParser`` reports, in document order.
protocol XMLEventHandler {
    /// An element's start tag: its name as written (`p`, `dc:title`), its attributes (names with
    /// their prefix, `epub:type`, `xml:lang`; values with references decoded), the source offset
    /// of its `<`, and whether it is empty (`<br/>`), in which case no end event follows.
    mutating func startElement(_ name: String, attributes: [String: String], offset: Int, isEmpty: Bool)
    mutating func endElement(_ name: String)
    /// One scalar of character data (references decoded, CDATA sections' content included) and
    /// the source offset it came from: its own, or for a reference the offset of its `&`.
    mutating func text(_ scalar: Unicode.Scalar, origin: Int)
}

/// Why an XML document could not be read: libxml2's message, where it stopped.
struct XMLParseFailure: Error, Equatable {
    var line: Int
    var column: Int
    var message: String
}

/// Reads XML with libxml2's SAX2 parser and reports elements and text with their source offsets
/// (Unicode scalar offsets into the string read) to an ``XMLEventHandler``.
///
/// libxml2 checks well-formedness, decodes references and CDATA and gives line and column for
/// what it refuses. It reports no source offsets for text, so this parser finds them: at each
/// tag libxml2 gives its byte position, and the text between is matched against the source
/// (a reference's scalars take the offset of its `&`; CR LF, read as LF, takes the LF's).
///
/// Attribute values are libxml2's, except in a start tag with a reference in it: libxml2 keeps
/// `&amp;` there as `&#38;` and only the first byte of any other entity it does not define, so
/// such values are decoded from the tag's source.
///
/// Never loads a DTD or an external entity and never touches the network: a hostile file
/// cannot make it read another file. Internal entities a document declares are expanded one
/// level deep, up to 1,000 scalars each and 1 MB in all (so none can be made to grow without
/// bound); a reference to an external or unknown entity is an error (dropped when recovering).
/// Elements nested more than 256 deep are refused (libxml2's limit).
struct XMLEventParser {
    /// Decode HTML's named references too (`&nbsp;`, `&mdash;` …), as XHTML readers do.
    var decodesHTMLEntities = false
    /// Keep going after errors where the document can be recovered (package files in the wild
    /// are not always well formed); nothing is thrown then.
    var recovers = false

    /// libxml2 asks to be initialised once, before parsing on any thread.
    private static let initialised: Void = xmlInitParser()

    func parse<Handler: XMLEventHandler>(_ text: String, into handler: inout Handler) throws(XMLParseFailure) {
        _ = Self.initialised
        let failure: XMLParseFailure? = withUnsafeMutablePointer(to: &handler) { handlerPointer in
            let state = ParseState(
                source: Array(text.unicodeScalars), decodesHTMLEntities: decodesHTMLEntities, recovers: recovers,
                start: { handlerPointer.pointee.startElement($0, attributes: $1, offset: $2, isEmpty: $3) },
                end: { handlerPointer.pointee.endElement($0) },
                text: { handlerPointer.pointee.text($0, origin: $1) })
            defer { state.freeEntities() }
            var bytes = Array(text.utf8)
            if bytes.isEmpty { bytes = [0x20] }
            var sax = Self.saxHandler()
            var options =
                XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue
            if recovers { options |= XML_PARSE_RECOVER.rawValue }
            return bytes.withUnsafeBufferPointer { buffer -> XMLParseFailure? in
                let characters = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                guard let context = xmlCreateMemoryParserCtxt(characters, Int32(clamping: buffer.count)) else {
                    return XMLParseFailure(
                        line: 1, column: 1, message: "libxml2 could not start a parser (out of memory?)")
                }
                return withUnsafeMutablePointer(to: &sax) { saxPointer in
                    let ownHandler = context.pointee.sax
                    context.pointee.sax = saxPointer
                    context.pointee.userData = Unmanaged.passUnretained(state).toOpaque()
                    state.context = context
                    _ = xmlCtxtUseOptions(context, Int32(options))
                    // libxml2 holds the state by an unretained pointer while it parses.
                    withExtendedLifetime(state) { _ = xmlParseDocument(context) }
                    let wellFormed = context.pointee.wellFormed != 0
                    context.pointee.sax = ownHandler
                    context.pointee.userData = nil
                    state.context = nil
                    xmlFreeParserCtxt(context)
                    if recovers { return nil }
                    if let failure = state.failure { return failure }
                    return wellFormed ? nil : XMLParseFailure(line: 1, column: 1, message: "not well-formed XML")
                }
            }
        }
        if let failure { throw failure }
    }

    private static func state(_ context: UnsafeMutableRawPointer?) -> ParseState {
        Unmanaged<ParseState>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func qualified(_ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> String {
        prefix.map { string($0) + ":" + string(localName) } ?? string(localName)
    }

    private static func saxHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, localName, prefix, _, _, _, attributeCount, _, attributes in
            var values: [String: String] = [:]
            if let attributes {
                // Five pointers an attribute: local name, prefix, URI, value start, value end.
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    let name = XMLEventParser.qualified(attributes[base], attributes[base + 1])
                    guard let start = attributes[base + 3], let end = attributes[base + 4] else {
                        values[name] = ""
                        continue
                    }
                    values[name] = String(
                        decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                }
            }
            XMLEventParser.state(context).startElement(XMLEventParser.qualified(localName, prefix), attributes: values)
        }
        sax.endElementNs = { context, localName, prefix, _ in
            XMLEventParser.state(context).endElement(XMLEventParser.qualified(localName, prefix))
        }
        let characters: charactersSAXFunc = { context, bytes, count in
            guard let bytes, count > 0 else { return }
            XMLEventParser.state(context).characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.getEntity = { context, name in
            XMLEventParser.state(context).entity(named: XMLEventParser.string(name))
        }
        sax.entityDecl = { context, name, type, _, _, content in
            let state = XMLEventParser.state(context)
            if type == Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), let content {
                state.declare(XMLEventParser.string(name), content: XMLEventParser.string(content))
            } else if type == Int32(XML_EXTERNAL_GENERAL_PARSED_ENTITY.rawValue)
                || type == Int32(XML_EXTERNAL_GENERAL_UNPARSED_ENTITY.rawValue)
            {
                state.external.insert(XMLEventParser.string(name))
            }
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            XMLEventParser.state(context).record(error.pointee)
        }
        return sax
    }

    /// What one parse knows: the source, where in it libxml2 has got to, and the handler's callbacks.
    private final class ParseState {
        let source: [Unicode.Scalar]
        let decodesHTMLEntities: Bool
        let start: (String, [String: String], Int, Bool) -> Void
        let end: (String) -> Void
        let emit: (Unicode.Scalar, Int) -> Void
        var context: xmlParserCtxtPtr?
        /// The scalar offset reached in the source, and the same place in UTF-8 bytes.
        var cursor = 0
        var cursorByte = 0
        /// The offset of the last `<` the cursor passed: the current tag's.
        var lastTagStart = 0
        /// An empty element's end event, which libxml2 sends at once, is not passed on.
        var skipsNextEnd = false
        /// Inside a CDATA section: its `]]>` ends it, and is not text.
        var inCDATA = false
        var failure: XMLParseFailure?
        var entities: [String: UnsafeMutablePointer<xmlEntity>] = [:]
        /// Internal entities the document declares, decoded, and how many of their scalars may
        /// still be expanded.
        var declared: [String: [Unicode.Scalar]] = [:]
        var expansionBudget = 1 << 20
        /// External entities the document declares: never read. A reference to one is empty when
        /// recovering (so libxml2 goes on decoding references after it), else an error.
        var external: Set<String> = []
        let recovers: Bool

        init(
            source: [Unicode.Scalar], decodesHTMLEntities: Bool, recovers: Bool,
            start: @escaping (String, [String: String], Int, Bool) -> Void,
            end: @escaping (String) -> Void, text: @escaping (Unicode.Scalar, Int) -> Void
        ) {
            self.source = source
            self.decodesHTMLEntities = decodesHTMLEntities
            self.recovers = recovers
            self.start = start
            self.end = end
            self.emit = text
        }

        /// The byte offset libxml2 has read to.
        var position: Int { context.map { Int(xmlByteConsumed($0)) } ?? cursorByte }

        func advance(toByte target: Int) {
            while cursorByte < target, cursor < source.count {
                if source[cursor] == "<" { lastTagStart = cursor }
                cursorByte += UTF8.width(source[cursor])
                cursor += 1
            }
        }

        func advance(scalars count: Int) {
            for _ in 0..<count where cursor < source.count {
                cursorByte += UTF8.width(source[cursor])
                cursor += 1
            }
        }

        func scalar(at offset: Int) -> Unicode.Scalar? { offset < source.count ? source[offset] : nil }

        func startElement(_ name: String, attributes: [String: String]) {
            // libxml2 reports a start tag with its position at the tag's `>`, or at `/>`.
            advance(toByte: position)
            let isEmpty = scalar(at: cursor) == "/"
            let offset = lastTagStart
            var attributes = attributes
            if lastTagStart < cursor, source[lastTagStart..<cursor].contains("&") {
                for (name, value) in attributesWritten(from: lastTagStart, to: cursor) where attributes[name] != nil {
                    attributes[name] = value
                }
            }
            if isEmpty { advance(scalars: 2) } else if scalar(at: cursor) == ">" { advance(scalars: 1) }
            skipsNextEnd = isEmpty
            start(name, attributes, offset, isEmpty)
        }

        /// The attributes of the well-formed start tag at `start..<end`, their values decoded as
        /// XML reads them (references decoded, each tab, CR or LF a space).
        func attributesWritten(from start: Int, to end: Int) -> [String: String] {
            var attributes: [String: String] = [:]
            var index = start + 1
            while index < end, !source[index].isWhiteSpace { index += 1 }
            while index < end {
                while index < end, source[index].isWhiteSpace || source[index] == "/" { index += 1 }
                let nameStart = index
                while index < end, source[index] != "=", !source[index].isWhiteSpace { index += 1 }
                let name = String(scalars: source[nameStart..<index])
                while index < end, source[index] != "\"", source[index] != "'" { index += 1 }
                guard index < end else { break }
                let quote = source[index]
                index += 1
                var value = String.UnicodeScalarView()
                while index < end, source[index] != quote {
                    if source[index] == "&", let (length, expansion) = reference(at: index) {
                        value.append(contentsOf: expansion)
                        index += length
                    } else {
                        value.append(["\t", "\n", "\r"].contains(source[index]) ? " " : source[index])
                        index += 1
                    }
                }
                index += 1
                if !name.isEmpty { attributes[name] = String(value) }
            }
            return attributes
        }

        func endElement(_ name: String) {
            if skipsNextEnd {
                skipsNextEnd = false
                return
            }
            advance(toByte: position)
            end(name)
        }

        /// The scalars of the last ``characters(_:)`` call (kept to reuse its storage).
        var delivered: [Unicode.Scalar] = []

        func characters(_ bytes: UnsafeBufferPointer<xmlChar>) {
            skipsNextEnd = false
            delivered.removeAll(keepingCapacity: true)
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): delivered.append(scalar)
                case .emptyInput: break decoding
                case .error: delivered.append("\u{FFFD}")
                }
            }
            var index = 0
            while index < delivered.count {
                guard let next = scalar(at: cursor) else {
                    emit(delivered[index], max(source.count - 1, 0))
                    index += 1
                    continue
                }
                if next == "&", let (length, expansion) = reference(at: cursor) {
                    // Well-formed XML has no bare `&` in text: this is a reference. One libxml2
                    // dropped (an unknown entity, with a DTD named) delivers nothing.
                    if delivered[index...].starts(with: expansion) {
                        for scalar in expansion { emit(scalar, cursor) }
                        index += expansion.count
                    }
                    advance(scalars: length)
                } else if next == "<", let length = markupLength(at: cursor) {
                    if length == 9, startsSource(with: "<![CDATA[") { inCDATA = true }
                    advance(scalars: length)
                } else if inCDATA, next == "]", startsSource(with: "]]>") {
                    inCDATA = false
                    advance(scalars: 3)
                } else if next == "\r", delivered[index] == "\n" {
                    // XML reads CR LF, and a lone CR, as LF.
                    let isPair = scalar(at: cursor + 1) == "\n"
                    emit("\n", isPair ? cursor + 1 : cursor)
                    advance(scalars: isPair ? 2 : 1)
                    index += 1
                } else if next == delivered[index] {
                    emit(next, cursor)
                    advance(scalars: 1)
                    index += 1
                } else {
                    // Text libxml2 recovered from damaged markup: it keeps the place it was found.
                    emit(delivered[index], cursor)
                    index += 1
                }
            }
        }

        func startsSource(with text: String) -> Bool { source.matches(text, at: cursor) }

        /// A comment, processing instruction or CDATA opening at `offset`: how many scalars it
        /// takes before text resumes (a CDATA section's content is text).
        func markupLength(at offset: Int) -> Int? {
            if source.matches("<![CDATA[", at: offset) { return 9 }
            let (opening, closing): (String, String)
            if source.matches("<!--", at: offset) {
                (opening, closing) = ("<!--", "-->")
            } else if source.matches("<?", at: offset) {
                (opening, closing) = ("<?", "?>")
            } else {
                return nil
            }
            var end = offset + opening.unicodeScalars.count
            while end < source.count, !source.matches(closing, at: end) { end += 1 }
            return min(end + closing.unicodeScalars.count, source.count) - offset
        }

        /// The reference at `offset` (`&amp;`, `&#233;`, `&mdash;`): its length and what it stands for.
        func reference(at offset: Int) -> (length: Int, expansion: [Unicode.Scalar])? {
            var end = offset + 1
            while end < source.count, end - offset < 48, source[end] != ";" { end += 1 }
            guard end < source.count, source[end] == ";", end > offset + 1 else { return nil }
            let body = String(scalars: source[(offset + 1)..<end])
            let expansion = body.hasPrefix("#") ? HTMLEntities.decode(reference: body) : expansion(ofEntity: body)
            return (end + 1 - offset, expansion ?? [])
        }

        /// What the entity `name` stands for: one of XML's five, an HTML name (when decoded), or
        /// an internal entity the document declared.
        func expansion(ofEntity name: String, declaredOnes: Bool = true) -> [Unicode.Scalar]? {
            switch name {
            case "amp": return ["&"]
            case "lt": return ["<"]
            case "gt": return [">"]
            case "quot": return ["\""]
            case "apos": return ["'"]
            default:
                if decodesHTMLEntities, let scalars = HTMLEntities.scalars(named: name) { return scalars }
                return declaredOnes ? declared[name] : nil
            }
        }

        /// An internal entity's declaration: its replacement text with references in it decoded
        /// (not other declared entities: one level, so no declaration can grow without bound).
        func declare(_ name: String, content: String) {
            let scalars = Array(content.unicodeScalars)
            guard declared[name] == nil, scalars.count <= 1_000 else { return }
            var decoded: [Unicode.Scalar] = []
            var index = 0
            while index < scalars.count {
                if scalars[index] == "&", let end = scalars[index...].firstIndex(of: ";"), end > index + 1 {
                    let body = String(scalars: scalars[(index + 1)..<end])
                    if let expansion = body.hasPrefix("#")
                        ? HTMLEntities.decode(reference: body) : expansion(ofEntity: body, declaredOnes: false)
                    {
                        decoded += expansion
                        index = end + 1
                        continue
                    }
                }
                decoded.append(scalars[index])
                index += 1
            }
            declared[name] = decoded
        }

        /// An entity libxml2 does not define, as it takes it: a predefined entity, whose content
        /// is inlined as text. Nil for unknown names, and for declared ones once the budget is spent.
        func entity(named name: String) -> UnsafeMutablePointer<xmlEntity>? {
            if let declaredScalars = declared[name] {
                expansionBudget -= declaredScalars.count
                if expansionBudget < 0 { return nil }
            }
            if external.contains(name), !recovers, failure == nil {
                let input = context?.pointee.input?.pointee
                failure = XMLParseFailure(
                    line: Int(input?.line ?? 1), column: Int(input?.col ?? 1),
                    message: "&\(name); refers to an external entity, which Forge never reads")
            }
            if let entity = entities[name] { return entity }
            guard let scalars = external.contains(name) ? [] : expansion(ofEntity: name) else { return nil }
            let content = String(scalars: scalars)
            let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
            entity.initialize(to: xmlEntity())
            entity.pointee.type = XML_ENTITY_DECL
            entity.pointee.etype = XML_INTERNAL_PREDEFINED_ENTITY
            entity.pointee.name = UnsafePointer(Self.copy(name))
            entity.pointee.content = Self.copy(content)
            entity.pointee.length = Int32(content.utf8.count)
            entities[name] = entity
            return entity
        }

        static func copy(_ text: String) -> UnsafeMutablePointer<xmlChar> {
            let bytes = Array(text.utf8) + [0]
            let copy = UnsafeMutablePointer<xmlChar>.allocate(capacity: bytes.count)
            copy.initialize(from: bytes, count: bytes.count)
            return copy
        }

        func freeEntities() {
            for entity in entities.values {
                entity.pointee.name.map { UnsafeMutablePointer(mutating: $0).deallocate() }
                entity.pointee.content?.deallocate()
                entity.deallocate()
            }
            entities.removeAll()
        }

        /// Keeps the first error that makes the document unreadable: a fatal one, or a reference to
        /// an entity nobody declared (only a warning to libxml2 when a DTD is named but not loaded).
        /// Namespace errors (an undeclared `epub:` prefix) are not among them: readers accept those.
        func record(_ error: xmlError) {
            guard failure == nil, error.domain == Int32(XML_FROM_PARSER.rawValue) else { return }
            let undeclared =
                error.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue)
                || error.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue)
            guard error.level == XML_ERR_FATAL || undeclared else { return }
            var message = error.message.map { String(cString: $0) } ?? "not well-formed XML"
            message = message.trimmingCharacters(in: .whitespacesAndNewlines)
            if message.hasPrefix("Excessive depth in document") {
                message = "elements are nested more than 256 deep"
            } else if undeclared, expansionBudget < 0 {
                message = "the document's declared entities expand to more than 1 MB of text"
            }
            failure = XMLParseFailure(line: Int(error.line), column: Int(error.int2), message: message)
        }
    }
}
