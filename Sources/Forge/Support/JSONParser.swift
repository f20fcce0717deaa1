/// A strict JSON (RFC 8259) parser that reports the line and column of the first error and
/// bounds nesting depth, so a malformed or hostile recipe gets a precise, safe refusal.
///
/// Foundation's parser on Linux reports neither line nor column, which is why Forge parses
/// recipes itself; the recipe schema is then checked by ``RecipeLoader``. Workers' job lines read
/// their texts' escapes with it too (``DirectJSON``).
package struct JSONParser {
    /// A syntax error at a 1-based line and column.
    package struct SyntaxError: Error, Sendable, Equatable {
        package var line: Int
        package var column: Int
        package var message: String
    }

    /// The deepest nesting of arrays and objects accepted.
    package var maximumDepth: Int

    package init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
    }

    package func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var cursor = Cursor(bytes: bytes, maximumDepth: maximumDepth)
        // A UTF-8 byte order mark is tolerated, as editors on some systems write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.offset = 3 }
        cursor.skipWhitespace()
        let value = try cursor.parseValue(depth: 0)
        cursor.skipWhitespace()
        if cursor.offset < bytes.count {
            throw cursor.error("unexpected \(cursor.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private struct Cursor {
        let bytes: [UInt8]
        let maximumDepth: Int
        var offset = 0

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        func error(_ message: String, at position: Int? = nil) -> SyntaxError {
            var message = message
            // Whatever was expected here, a comment is the likelier mistake to name.
            if position == nil, offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "/"),
                bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*")
            {
                message = "a comment, which JSON does not allow; remove it (or put notes in a key such as \"title\")"
            }
            let end = min(position ?? offset, bytes.count)
            var line = 1
            var column = 1
            var index = 0
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1  // count characters, not UTF-8 continuation bytes
                }
                index += 1
            }
            return SyntaxError(line: line, column: column, message: message)
        }

        func describeCurrent() -> String {
            guard offset < bytes.count else { return "end of file" }
            let byte = bytes[offset]
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
            guard offset < bytes.count else { throw error("unexpected end of file; a value was expected") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default:
                throw error(
                    "unexpected \(describeCurrent()); a value (object, array, string, number, true, false or null) was expected"
                )
            }
        }

        mutating func expectLiteral(_ literal: String) throws(SyntaxError) {
            let expected = Array(literal.utf8)
            guard offset + expected.count <= bytes.count,
                Array(bytes[offset..<offset + expected.count]) == expected
            else { throw error("invalid literal; did you mean \(literal)?") }
            offset += expected.count
        }

        mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
            if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
            offset += 1
            var members: [(key: String, value: JSONValue)] = []
            var seen = Set<String>()
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                    let afterComma = !members.isEmpty && offset < bytes.count && bytes[offset] == UInt8(ascii: "}")
                    throw error(
                        afterComma
                            ? "trailing comma before '}'; JSON does not allow one"
                            : "unexpected \(describeCurrent()); a quoted key was expected")
                }
                let keyStart = offset
                let key = try parseString()
                if !seen.insert(key).inserted {
                    throw error("the key \"\(key)\" appears twice in the same object", at: keyStart)
                }
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeCurrent()); ':' was expected after the key \"\(key)\"")
                }
                offset += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                members.append((key, value))
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of file; '}' was expected") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                if bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members)
                }
                throw error("unexpected \(describeCurrent()); ',' or '}' was expected")
            }
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
            if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
            offset += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of file; ']' was expected") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    skipWhitespace()
                    if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                        throw error("trailing comma before ']'; JSON does not allow one")
                    }
                    continue
                }
                if bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(elements)
                }
                throw error("unexpected \(describeCurrent()); ',' or ']' was expected")
            }
        }

        mutating func parseString() throws(SyntaxError) -> String {
            let start = offset
            offset += 1
            var scalars = String.UnicodeScalarView()
            var run = offset
            func flush(_ end: Int, into scalars: inout String.UnicodeScalarView) -> Bool {
                guard run < end else { return true }
                guard let text = String(validating: bytes[run..<end], as: UTF8.self) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                return true
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    guard flush(offset, into: &scalars) else { throw error("the string is not valid UTF-8", at: start) }
                    offset += 1
                    return String(scalars)
                }
                if byte < 0x20 {
                    throw error(
                        "a control character (byte 0x\(String(byte, radix: 16))) inside a string; write it as an escape such as \\n"
                    )
                }
                if byte == UInt8(ascii: "\\") {
                    guard flush(offset, into: &scalars) else { throw error("the string is not valid UTF-8", at: start) }
                    offset += 1
                    guard offset < bytes.count else { break }
                    let escape = bytes[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try parseHex4()
                        if (0xD800...0xDBFF).contains(code) {
                            guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                                bytes[offset + 1] == UInt8(ascii: "u")
                            else {
                                throw error("a lone UTF-16 surrogate in a \\u escape")
                            }
                            offset += 2
                            let low = try parseHex4()
                            guard (0xDC00...0xDFFF).contains(low) else {
                                throw error("an invalid UTF-16 surrogate pair in a \\u escape")
                            }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else {
                            throw error("a \\u escape that is not a Unicode scalar")
                        }
                        scalars.append(scalar)
                    default:
                        throw error("an invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                    }
                    run = offset
                    continue
                }
                offset += 1
            }
            throw error("a string that is never closed (a '\"' is missing)", at: start)
        }

        mutating func parseHex4() throws(SyntaxError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("a \\u escape needs four hex digits")
                }
                value = value * 16 + digit
                offset += 1
            }
            return value
        }

        mutating func parseNumber() throws(SyntaxError) -> Double {
            let start = offset
            if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            func digits(_ cursor: inout Cursor) -> Int {
                var count = 0
                while cursor.offset < cursor.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(cursor.bytes[cursor.offset])
                {
                    cursor.offset += 1
                    count += 1
                }
                return count
            }
            let integerStart = offset
            let integerDigits = digits(&self)
            if integerDigits == 0 { throw error("a number needs at least one digit", at: start) }
            if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
                throw error("a number may not have leading zeros", at: start)
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                if digits(&self) == 0 { throw error("a number needs digits after the decimal point") }
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                    offset += 1
                }
                if digits(&self) == 0 { throw error("a number needs digits in its exponent") }
            }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                throw error("the number \(text) is out of range", at: start)
            }
            return value
        }
    }
}
