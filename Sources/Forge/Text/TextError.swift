import Foundation

/// Why a source document could not be read or split.
public enum TextError: LocalizedError, Sendable, Equatable {
    case unreadable(file: String, reason: String)
    case notUTF8(file: String, byteOffset: Int)
    case binary(file: String, byteOffset: Int)
    case noSpeakableText(files: [String])

    public var errorDescription: String? {
        switch self {
        case let .unreadable(file, reason):
            return "\(file): cannot read the source: \(reason)."
        case let .notUTF8(file, byteOffset):
            return "\(file): the text is not valid UTF-8 at byte offset \(byteOffset). Convert it first, e.g. `iconv -f latin1 -t utf-8`."
        case let .binary(file, byteOffset):
            return "\(file): this looks like a binary file, not text (a NUL byte at byte offset \(byteOffset)). Name a text or Markdown file in \"sources\"."
        case let .noSpeakableText(files):
            return "\(files.joined(separator: ", ")): no speakable text was found (the sources are empty or only whitespace and punctuation)."
        }
    }
}
