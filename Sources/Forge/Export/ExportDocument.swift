import Foundation

/// A JSON document of an export, whose Swift type is its schema (docs/exports.md names the type
/// beside each format). Keys are sorted: the same book gives the same bytes in every run.
protocol ExportDocument: Encodable {}

extension ExportDocument {
    /// The document as UTF-8 JSON on one line, with a newline after it.
    func encodedLine() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(self))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
