/// The character encodings a text source is read in, and how Forge tells them apart: books as people
/// download them come as UTF-8 (with or without a byte-order mark), UTF-16 (Windows "Unicode" saves) and
/// 8-bit Western text (Project Gutenberg's `-8.txt` files are Latin-1; Windows editors save Windows-1252).
package enum TextEncoding: String, Sendable, Equatable, CaseIterable {
    case utf8 = "UTF-8"
    case utf8WithByteOrderMark = "UTF-8 with BOM"
    case utf16LittleEndian = "UTF-16LE"
    case utf16BigEndian = "UTF-16BE"
    case windows1252 = "Windows-1252"
    case latin1 = "ISO-8859-1"

    /// A text decoded, with the encoding it was read in.
    package struct Decoded: Sendable, Equatable {
        package var text: String
        package var encoding: TextEncoding

        package init(text: String, encoding: TextEncoding) {
            self.text = text
            self.encoding = encoding
        }
    }

    /// What the bytes of a text are, in this order: a byte-order mark; UTF-16 by its NUL bytes; a NUL
    /// byte (binary); valid UTF-8; else Western 8-bit text — Windows-1252 when it uses that code page's
    /// punctuation (bytes 0x80–0x9F), else Latin-1. Bytes that are neither (a byte Windows-1252 leaves
    /// undefined, or letters mostly outside ASCII, as Cyrillic or Greek 8-bit text has) are refused.
    package static func decode(_ data: some Collection<UInt8>, file: String) throws(TextError) -> Decoded {
        let bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            let rest = bytes.dropFirst(3)
            guard let text = String(validating: rest, as: UTF8.self) else {
                throw .notUTF8(file: file, byteOffset: 3 + SourceReader.firstInvalidUTF8Offset(Array(rest)))
            }
            return Decoded(text: text, encoding: .utf8WithByteOrderMark)
        }
        if let order = utf16ByteOrder(bytes) {
            return Decoded(
                text: try decodeUTF16(bytes, bigEndian: order == .utf16BigEndian, file: file), encoding: order)
        }
        if let nul = bytes.firstIndex(of: 0) { throw .binary(file: file, byteOffset: nul) }
        if let text = String(validating: bytes, as: UTF8.self) { return Decoded(text: text, encoding: .utf8) }
        return try decodeWestern(bytes, file: file)
    }

    /// UTF-16 by its byte-order mark, or (without one) by NUL bytes in every other position of its
    /// first 64 bytes, as ASCII-range text in UTF-16 has.
    static func utf16ByteOrder(_ bytes: [UInt8]) -> TextEncoding? {
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        let head = bytes.prefix(64)
        guard head.count >= 8, head.count % 2 == 0 else { return nil }
        let evens = stride(from: 0, to: head.count, by: 2).map { head[$0] }
        let odds = stride(from: 1, to: head.count, by: 2).map { head[$0] }
        if odds.allSatisfy({ $0 == 0 }) && !evens.contains(0) { return .utf16LittleEndian }
        if evens.allSatisfy({ $0 == 0 }) && !odds.contains(0) { return .utf16BigEndian }
        return nil
    }

    static func decodeUTF16(_ bytes: [UInt8], bigEndian: Bool, file: String) throws(TextError) -> String {
        let hasMark = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let start = hasMark ? 2 : 0
        guard (bytes.count - start) % 2 == 0 else {
            throw .badUTF16(file: file, byteOffset: bytes.count - 1)
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        for offset in stride(from: start, to: bytes.count, by: 2) {
            let (high, low) = bigEndian ? (bytes[offset], bytes[offset + 1]) : (bytes[offset + 1], bytes[offset])
            units.append(UInt16(high) << 8 | UInt16(low))
        }
        var scalars = String.UnicodeScalarView()
        var decoder = UTF16()
        var iterator = units.makeIterator()
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\0" { throw .binary(file: file, byteOffset: start + consumed * 2) }
                scalars.append(scalar)
                consumed += scalar.value > 0xFFFF ? 2 : 1
            case .emptyInput:
                return String(scalars)
            case .error:
                throw .badUTF16(file: file, byteOffset: start + consumed * 2)
            }
        }
    }

    /// Windows-1252's characters for bytes 0x80–0x9F (nil: undefined there).
    static let windows1252High: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil,
        0x017D, nil, nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, nil, 0x017E, 0x0178,
    ]

    static func decodeWestern(_ bytes: [UInt8], file: String) throws(TextError) -> Decoded {
        let usesCodePage = bytes.contains { $0 >= 0x80 && $0 <= 0x9F }
        if let undefined = bytes.firstIndex(where: {
            $0 >= 0x80 && $0 <= 0x9F && windows1252High[Int($0) - 0x80] == nil
        }) {
            throw .unknownEncoding(file: file, byteOffset: undefined)
        }
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        var letters = 0
        var highLetters = 0
        for byte in bytes {
            let value = byte >= 0x80 && byte <= 0x9F ? windows1252High[Int(byte) - 0x80]! : UInt32(byte)
            let scalar = Unicode.Scalar(value)!
            if scalar.properties.isAlphabetic {
                letters += 1
                if byte >= 0x80 { highLetters += 1 }
            }
            scalars.append(scalar)
        }
        // Western text in any of its languages spells most letters in ASCII; text in another 8-bit
        // code page (KOI8-R, Windows-1251, ISO-8859-7) read as Latin-1 is mostly accented letters.
        if letters > 0, highLetters * 10 > letters * 3 {
            throw .unknownEncoding(file: file, byteOffset: bytes.firstIndex { $0 >= 0x80 } ?? 0)
        }
        return Decoded(text: String(scalars), encoding: usesCodePage ? .windows1252 : .latin1)
    }
}
