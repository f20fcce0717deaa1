import Foundation

/// A JSON document of an export, whose Swift type is its schema (docs/exports.md names the type
/// beside each format). Keys are sorted: the same book gives the same bytes in every run.
protocol ExportDocument: Encodable {
    /// The document as UTF-8 JSON on one line, with a newline after it.
    func encodedLine() throws -> [UInt8]
}

extension ExportDocument {
    func encodedLine() throws -> [UInt8] { try foundationEncodedLine() }

    /// The document as JSONEncoder writes it (sorted keys, slashes unescaped): the reference a
    /// type with a faster writer of its own must equal byte for byte.
    func foundationEncodedLine() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(self))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
