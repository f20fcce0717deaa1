/// JSON string literals, escaped per RFC 8259, for the JSON Forge writes by hand where
/// Foundation's encoders are too slow or not canonical (content keys, manifest word lists,
/// progress lines).
package enum JSONText {
    /// `text` as a JSON string literal.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal (RFC 8259 escaping) to UTF-8 bytes.
    package static func appendQuoted(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            json.append(contentsOf: text.utf8)
            json.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                json.append(UInt8(ascii: "\\"))
                json.append(byte)
            case UInt8(ascii: "\n"): json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                json.append(contentsOf: Array("\\u00".utf8))
                json.append(hex[Int(byte >> 4)])
                json.append(hex[Int(byte & 0x0F)])
            default:
                json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }
}
