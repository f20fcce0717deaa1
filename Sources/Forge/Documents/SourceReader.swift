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
    /// is cut at sentences, and splitting one costs memory many times its size.
    package static let maximumLineBytes = 8 << 20

    /// A text file in whichever encoding it has (``TextEncoding``).
    package static func read(_ url: URL) throws(TextError) -> String {
        try decodeText(bytes(of: url), file: url.path).text
    }

    /// Decodes a text source after checking it against ``maximumTextBytes`` and ``maximumLineBytes``,
    /// before any of it is split: a 100 MB line would cost gigabytes.
    package static func decodeText(_ data: Data, file: String) throws(TextError) -> TextEncoding.Decoded {
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
        return try TextEncoding.decode(data, file: file)
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

    /// A document of a format that must be Unicode (XHTML in an EPUB): UTF-8 or UTF-16, never 8-bit.
    package static func decode(_ data: Data, file: String) throws(TextError) -> String {
        let bytes = [UInt8](data)
        let decoded = try TextEncoding.decode(bytes, file: file)
        switch decoded.encoding {
        case .windows1252, .latin1: throw .notUTF8(file: file, byteOffset: firstInvalidUTF8Offset(bytes))
        default: return decoded.text
        }
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
