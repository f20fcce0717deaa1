import Foundation

/// Reads a source document as UTF-8 text, refusing binary files and invalid encodings with
/// the byte offset of the first bad byte.
public enum SourceReader {
    public static func read(_ url: URL) throws(TextError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .unreadable(file: url.path, reason: (error as NSError).localizedDescription)
        }
        return try decode(data, file: url.path)
    }

    public static func decode(_ data: Data, file: String) throws(TextError) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let nul = bytes.firstIndex(of: 0) {
            throw .binary(file: file, byteOffset: nul)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw .notUTF8(file: file, byteOffset: firstInvalidUTF8Offset(bytes))
    }

    /// The offset of the first byte that does not begin or continue a valid UTF-8 sequence.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var consumed = 0
        // The decoder does not report positions, so count the bytes of each scalar it accepts.
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                consumed = UTF8.width(scalar)
                offset += consumed
            case .emptyInput:
                return offset
            case .error:
                return offset
            }
        }
    }
}
