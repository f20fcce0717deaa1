import Foundation

/// An answer's line: the events document is written last, as the events object's own bytes, so a
/// worker encodes it once (for the object) and the orchestrator reads it without Foundation's
/// decoder (``SpeechEventsDocument/canonical(_:)``).
extension SpeechJobResult {
    private static let documentField = Array(#","document":"#.utf8)

    /// The answer as one JSON line, ending in a newline; `documentJSON` is ``document`` as already
    /// encoded (nil to encode it here).
    package func line(documentJSON: Data? = nil) -> Data? {
        var rest = self
        rest.document = nil
        guard var line = try? JSONEncoder().encode(rest) else { return nil }
        if let document {
            guard line.last == UInt8(ascii: "}") else { return nil }
            line.removeLast()
            line.append(contentsOf: Self.documentField)
            line.append(documentJSON ?? document.encoded())
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Reads an answer line (without its newline); nil when it is not one.
    package static func decode(line: [UInt8]) -> SpeechJobResult? {
        // Outside strings every quote is bare and inside them escaped, so the first `,"document":`
        // is the field itself, not text in an error message.
        if let split = firstIndex(of: documentField, in: line), line.last == UInt8(ascii: "}") {
            let documentStart = split + documentField.count
            let document = line[documentStart..<(line.count - 1)].withUnsafeBytes { SpeechEventsDocument.canonical($0) }
            if let document, var result = try? JSONDecoder().decode(SpeechJobResult.self, from: Data(line[..<split] + [UInt8(ascii: "}")])) {
                result.document = document
                return result
            }
        }
        return try? JSONDecoder().decode(SpeechJobResult.self, from: Data(line))
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            pattern.withUnsafeBufferPointer { needle in
                var index = 0
                while index + needle.count <= buffer.count {
                    guard let found = memchr(buffer.baseAddress! + index, Int32(needle[0]), buffer.count - needle.count + 1 - index) else { return nil }
                    let position = buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(buffer.baseAddress! + position, needle.baseAddress!, needle.count) == 0 { return position }
                    index = position + 1
                }
                return nil
            }
        }
    }
}
