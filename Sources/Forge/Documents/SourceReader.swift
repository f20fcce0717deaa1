import Foundation

/// Reads a source document as UTF-8 text, refusing binary files and invalid encodings with
/// the byte offset of the first bad byte.
package enum SourceReader {
    /// The largest source file read (a 50-hour book is about 3 MiB of text, an illustrated EPUB
    /// a few hundred).
    package static let maximumBytes = 1 << 30
    /// The largest text source (plain text, Markdown, HTML, a script): twenty times the longest
    /// books; reading holds it in memory a few times over.
    package static let maximumTextBytes = 64 << 20
    /// The longest line of a text source: a paragraph of prose is a few kilobytes; a longer line
    /// is cut at sentences, and one of this size costs ~200 MB to split.
    package static let maximumLineBytes = 8 << 20

    package static func read(_ url: URL) throws(TextError) -> String {
        try decode(bytes(of: url), file: url.path)
    }

    /// Decodes a text source after checking it against ``maximumTextBytes`` and ``maximumLineBytes``,
    /// before any of it is split: a 100 MB line would cost gigabytes.
    package static func decodeText(_ data: Data, file: String) throws(TextError) -> String {
        guard data.count <= maximumTextBytes else {
            throw .tooLarge(file: file, bytes: data.count, limit: maximumTextBytes)
        }
        var line = 1
        var start = 0
        let newline = UInt8(ascii: "\n")
        let longest: (line: Int, bytes: Int)? = data.withUnsafeBytes {
            (bytes: UnsafeRawBufferPointer) -> (line: Int, bytes: Int)? in
            for (offset, byte) in bytes.enumerated() where byte == newline {
                if offset - start > maximumLineBytes { return (line, offset - start) }
                line += 1
                start = offset + 1
            }
            return bytes.count - start > maximumLineBytes ? (line, bytes.count - start) : nil
        }
        if let longest {
            throw .lineTooLong(file: file, line: longest.line, bytes: longest.bytes, limit: maximumLineBytes)
        }
        return try decode(data, file: file)
    }

    /// A source file's bytes, once it is known to be a regular file (a FIFO or a device such as
    /// /dev/zero would block or never end).
    package static func bytes(of url: URL) throws(TextError) -> Data {
        try checkRegularFile(url)
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .unreadable(file: url.path, reason: ErrorReason.text(error))
        }
    }

    /// Refuses anything but a regular file of at most ``maximumBytes``.
    package static func checkRegularFile(_ url: URL) throws(TextError) {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw .unreadable(file: url.path, reason: String(cString: strerror(errno)))
        }
        if let kind = FileKind.describe(status.st_mode & S_IFMT) { throw .notAFile(file: url.path, kind: kind) }
        guard Int(status.st_size) <= maximumBytes else {
            throw .tooLarge(file: url.path, bytes: Int(status.st_size), limit: maximumBytes)
        }
    }

    package static func decode(_ data: Data, file: String) throws(TextError) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if isUTF16(bytes) { throw .utf16(file: file) }
        if let nul = bytes.firstIndex(of: 0) {
            throw .binary(file: file, byteOffset: nul)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw .notUTF8(file: file, byteOffset: firstInvalidUTF8Offset(bytes))
    }

    /// UTF-16 by its byte-order mark, or (without one) by NUL bytes in every other position of
    /// its first 64 bytes, as ASCII-range text in UTF-16 has.
    static func isUTF16(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        let head = bytes.prefix(64)
        guard head.count >= 8, head.count % 2 == 0 else { return false }
        let evens = stride(from: 0, to: head.count, by: 2).map { head[$0] }
        let odds = stride(from: 1, to: head.count, by: 2).map { head[$0] }
        return (evens.allSatisfy { $0 == 0 } && !odds.contains(0))
            || (odds.allSatisfy { $0 == 0 } && !evens.contains(0))
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
