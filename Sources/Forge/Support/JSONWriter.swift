/// JSON written field by field, for the documents Forge writes so often that Foundation's encoder
/// showed in a book's CPU (events documents, workers' lines, timings exports, progress lines) and
/// for the canonical text content keys are hashed from. Each document gets exactly the bytes it
/// always had: `JSONEncoder`'s (keys in the order given — sorted where the document is, which a
/// debug build checks — numbers as it prints them, strings escaped as it escapes them), or the
/// canonical escapes of ``Escaping/canonical``; the byte-equality tests compare them on real documents.
package struct JSONWriter {
    /// How strings are escaped.
    package enum Escaping: Sendable {
        /// As `JSONEncoder` does: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other controls as
        /// `\u00xx`, and `/` as `\/` unless the encoder was told `.withoutEscapingSlashes`.
        case foundation(escapingSlashes: Bool)
        /// RFC 8259's least: `\"`, `\\`, `\n`, `\r`, `\t`, other controls as `\u00xx`: what content
        /// keys and the manifest's word lists were always written with.
        case canonical
    }

    package private(set) var bytes: [UInt8] = []
    private let escaping: Escaping
    private let sortedKeys: Bool
    /// Whether each open object or array has a member yet (a comma goes before the next).
    private var hasMember: [Bool] = []
    /// The last key of each open object, checked for order in a debug build.
    private var lastKeys: [String] = []

    /// A writer of `escaping`'s strings; with `sortedKeys`, a debug build stops at a key out of order.
    package init(escaping: Escaping, sortedKeys: Bool = true, capacity: Int = 256) {
        self.escaping = escaping
        self.sortedKeys = sortedKeys
        bytes.reserveCapacity(capacity)
    }

    /// The document as text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Values (the document itself, or an array's elements)

    package mutating func object(_ members: (inout JSONWriter) -> Void) {
        separate()
        appendObject(members)
    }

    package mutating func array(_ elements: (inout JSONWriter) -> Void) {
        separate()
        appendArray(elements)
    }

    package mutating func value(_ string: String) {
        separate()
        appendQuoted(string)
    }

    package mutating func value(_ number: Int) {
        separate()
        appendInteger(number)
    }

    /// A double as `JSONEncoder` prints one: an integral value without a fraction ("1", not "1.0").
    package mutating func value(_ number: Double) {
        separate()
        appendDouble(number)
    }

    package mutating func value(_ flag: Bool) {
        separate()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Bytes that are JSON already (a document encoded before), as one value.
    package mutating func json(_ encoded: some Sequence<UInt8>) {
        separate()
        bytes.append(contentsOf: encoded)
    }

    /// Ends the document's line.
    package mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: Members of an object

    package mutating func field(_ key: String, _ value: String) {
        self.key(key)
        appendQuoted(value)
    }

    package mutating func field(_ key: String, _ value: Int) {
        self.key(key)
        appendInteger(value)
    }

    package mutating func field(_ key: String, _ value: Double) {
        self.key(key)
        appendDouble(value)
    }

    package mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// The value, or `null` when there is none (where the document's coder writes one).
    package mutating func field(_ key: String, orNull value: Int?) {
        self.key(key)
        if let value { appendInteger(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// A member written only when there is a value (as synthesized `Encodable` leaves out nil).
    package mutating func field(_ key: String, ifPresent value: Int?) {
        if let value { field(key, value) }
    }

    package mutating func field(_ key: String, ifPresent value: String?) {
        if let value { field(key, value) }
    }

    package mutating func field(_ key: String, ifPresent value: Double?) {
        if let value { field(key, value) }
    }

    package mutating func field(_ key: String, ifPresent value: Bool?) {
        if let value { field(key, value) }
    }

    /// A member whose value is an object.
    package mutating func object(_ key: String, _ members: (inout JSONWriter) -> Void) {
        self.key(key)
        appendObject(members)
    }

    /// A member whose value is an array.
    package mutating func array(_ key: String, _ elements: (inout JSONWriter) -> Void) {
        self.key(key)
        appendArray(elements)
    }

    /// Bytes that are JSON already, as the member's value.
    package mutating func field(_ key: String, json encoded: some Sequence<UInt8>) {
        self.key(key)
        bytes.append(contentsOf: encoded)
    }

    /// A number as text the caller formatted (a form no other method writes).
    package mutating func field(_ key: String, number: String) {
        self.key(key)
        bytes.append(contentsOf: number.utf8)
    }

    // MARK: Writing

    /// `text` as a JSON string literal with the canonical escapes (``Escaping/canonical``).
    package static func quoted(_ text: String) -> String {
        var writer = JSONWriter(escaping: .canonical, capacity: text.utf8.count + 2)
        writer.value(text)
        return writer.text
    }

    private mutating func key(_ key: String) {
        assert(
            !sortedKeys || lastKeys.last.map { $0.isEmpty || $0 < key } != false,
            "key \(key) after \(lastKeys.last ?? "") in a sorted document")
        if sortedKeys { lastKeys[lastKeys.count - 1] = key }
        separate()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A comma before every member of an open object or array but its first.
    private mutating func separate() {
        guard let last = hasMember.indices.last else { return }
        if hasMember[last] { bytes.append(UInt8(ascii: ",")) } else { hasMember[last] = true }
    }

    private mutating func appendObject(_ members: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        hasMember.append(false)
        lastKeys.append("")
        members(&self)
        lastKeys.removeLast()
        hasMember.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func appendArray(_ elements: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "["))
        hasMember.append(false)
        elements(&self)
        hasMember.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// As `JSONEncoder` prints a double: an integral value without a fraction ("1", not "1.0").
    private mutating func appendDouble(_ number: Double) {
        if number == number.rounded(), abs(number) < 1e15 {
            appendInteger(Int(number))
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let escapesSlashes: Bool
        let foundation: Bool
        switch escaping {
        case .foundation(let slashes): (foundation, escapesSlashes) = (true, slashes)
        case .canonical: (foundation, escapesSlashes) = (false, false)
        }
        // Most text needs no escape: copied whole.
        let needsEscape = text.utf8.contains { byte in
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                || (escapesSlashes && byte == UInt8(ascii: "/"))
        }
        guard needsEscape else {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case UInt8(ascii: "/") where escapesSlashes:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08 where foundation: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C where foundation: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
