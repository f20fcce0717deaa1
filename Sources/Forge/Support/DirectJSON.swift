import Foundation

/// JSON read directly for the few fixed shapes that cross a build's pipes and store thousands of
/// times (events documents, workers' answers and notices), where Foundation's coders cost about a
/// second of a book's CPU; they are written by ``JSONWriter``. Only strings that need no escaping
/// are written in these shapes; anything else is left to Foundation, and a reader that meets
/// anything but the exact shape its writer makes gives up, so the caller decodes with Foundation instead.
package enum DirectJSON {
    /// `value` as Foundation encodes it, as one line ending in a newline: what a writer falls back to.
    static func foundationLine(_ value: some Encodable) -> Data? {
        guard var line = try? JSONEncoder().encode(value) else { return nil }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Printable ASCII other than a quote or backslash; with `slashes` false, no slash either
    /// (Foundation's encoder writes `\/`, and events objects must be its bytes exactly).
    package static func isPlain(_ string: String, slashes: Bool) -> Bool {
        string.utf8.allSatisfy { isPlain($0, slashes: slashes) }
    }

    static func isPlain(_ byte: UInt8, slashes: Bool) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
            && (slashes || byte != UInt8(ascii: "/"))
    }

    /// Reads bytes front to back; every method leaves the position unchanged on a mismatch.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        mutating func expect(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                memcmp(bytes.baseAddress! + position, expected.baseAddress!, count) == 0
            }
            if matches { position += count }
            return matches
        }

        /// Characters up to a closing quote (consumed), all of them plain; nil at an escape or anything else.
        mutating func plainString(slashes: Bool) -> String? {
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                guard DirectJSON.isPlain(bytes[end], slashes: slashes) else { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            let string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
            position = end + 1
            return string
        }

        /// Any string up to its closing quote (consumed), its escapes read; the opening quote is
        /// read already. Nil where the string is not valid JSON.
        mutating func string() -> String? {
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else { return nil }
            // The recipe's JSON parser reads the escapes: one reading of JSON strings in Forge.
            var literal = [UInt8(ascii: "\"")]
            literal.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...end]))
            guard case .string(let value)? = try? JSONParser().parse(literal) else { return nil }
            position = end + 1
            return value
        }

        /// An integer as JSON writes one (no leading zeros, at most 18 digits).
        mutating func integer() -> Int? {
            var index = position
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let first = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"),
                index - first < 18
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - first
            guard digits > 0, !(digits > 1 && bytes[first] == UInt8(ascii: "0")) else { return nil }
            // More digits than 18, a fraction or an exponent: Foundation reads it.
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return nil
                default: break
                }
            }
            position = index
            return negative ? -value : value
        }
    }
}
