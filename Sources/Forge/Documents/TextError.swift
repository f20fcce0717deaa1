import Foundation

/// Why a source document could not be read or split.
package enum TextError: LocalizedError, Sendable, Equatable {
    case unreadable(file: String, reason: String)
    case notUTF8(file: String, byteOffset: Int)
    case binary(file: String, byteOffset: Int)
    case noSpeakableText(files: [String])
    case notAFile(file: String, kind: String)
    case badUTF16(file: String, byteOffset: Int)
    case unknownEncoding(file: String, byteOffset: Int)
    case tooLarge(file: String, bytes: Int, limit: Int)
    /// A line (a paragraph, in most plain text) longer than ``SourceReader/maximumLineBytes``.
    case lineTooLong(file: String, line: Int, bytes: Int, limit: Int)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .unreadable(let file, let reason):
            return (
                "\(file): cannot read the source: \(ErrorReason.trimmed(reason)).",
                "Check the path in \"sources\" and the file's permissions."
            )
        case .notUTF8(let file, let byteOffset):
            return (
                "\(file): the text is not valid UTF-8 at byte offset \(byteOffset).",
                "Convert it first, e.g. `iconv -f latin1 -t utf-8`."
            )
        case .binary(let file, let byteOffset):
            return (
                "\(file): this looks like a binary file, not text (a NUL byte at byte offset \(byteOffset)).",
                "Name a text or Markdown file in \"sources\"."
            )
        case .notAFile(let file, let kind):
            return (
                "\(file): this is \(kind), not a regular file; forge reads sources only from files.",
                "Save the text to a file and name that in \"sources\" (or use \"-\" for standard input)."
            )
        case .badUTF16(let file, let byteOffset):
            return (
                "\(file): the text is UTF-16 (by its byte-order mark or its NUL bytes) but breaks off or has a broken character at byte offset \(byteOffset).",
                "Save the file again from its editor, or convert it, e.g. `iconv -f UTF-16 -t UTF-8 in.txt > out.txt`."
            )
        case .unknownEncoding(let file, let byteOffset):
            return (
                "\(file): the text is not UTF-8, UTF-16 or Western 8-bit text (Latin-1, Windows-1252), the encodings forge reads; the first byte outside ASCII is at byte offset \(byteOffset).",
                "Convert it to UTF-8 from the encoding it is in, e.g. `iconv -f KOI8-R -t UTF-8 in.txt > out.txt` (or CP1251, ISO-8859-7, SHIFT-JIS …)."
            )
        case .lineTooLong(let file, let line, let bytes, let limit):
            return (
                "\(file):\(line): this line is \(bytes) bytes long; forge reads lines of at most \(limit) bytes (a paragraph of a book is a few thousand).",
                "Break the text into lines or paragraphs; if it is not prose (data, a minified document), it is not a source."
            )
        case .tooLarge(let file, let bytes, let limit):
            return (
                "\(file): the source is \(bytes >> 20) MiB; forge reads sources up to \(limit >> 20) MiB.",
                "Split the book into several sources."
            )
        case .noSpeakableText(let files):
            return (
                "\(files.joined(separator: ", ")): no speakable text was found (the sources are empty or only whitespace and punctuation).",
                nil
            )
        }
    }
}

extension TextError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unreadable, .notUTF8, .binary, .noSpeakableText, .notAFile, .badUTF16, .unknownEncoding, .tooLarge,
            .lineTooLong:
            .badInput
        }
    }
}
