import Foundation

/// Why an HTML, XHTML or EPUB source could not be read. Nothing is written when one is thrown.
package enum DocumentError: LocalizedError, Sendable, Equatable {
    /// XHTML that is not well formed, with the line and column of the problem.
    case malformedMarkup(file: String, line: Int, column: Int, problem: String)
    case notAZip(file: String, reason: String)
    case notAnEPUB(file: String, reason: String)
    case unsafeEntryPath(file: String, entry: String)
    case tooLarge(file: String, entry: String, limit: Int)
    case suspiciousCompression(file: String, entry: String, ratio: Int)
    case sizeMismatch(file: String, entry: String, declared: Int)
    /// The file itself could not be read (missing, a FIFO or device, too large).
    case unreadableFile(TextError)
    case missingEntry(file: String, entry: String, referencedBy: String)
    case unknownSpineItems(file: String, field: String, names: [String], spine: [String])
    case emptySpine(file: String)
    /// Content encrypted by a DRM scheme (META-INF/encryption.xml names it for more than fonts).
    case encrypted(file: String, entries: [String])

    /// A size in words: MiB from 1 MiB up, else KiB or bytes.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .malformedMarkup(let file, let line, let column, let problem):
            return (
                "\(file):\(line):\(column): broken XHTML: \(problem).",
                "Fix the markup (an XHTML file must be well-formed XML), or name an HTML file, which is read leniently."
            )
        case .notAZip(let file, let reason):
            return (
                "\(file): not a readable EPUB: it is not a zip archive (\(reason)).",
                "Name a .epub file, or set \"format\" for this source."
            )
        case .notAnEPUB(let file, let reason):
            return ("\(file): a zip archive, but not an EPUB: \(reason).", nil)
        case .unsafeEntryPath(let file, let entry):
            return (
                "\(file): the archive entry \"\(entry)\" points outside the archive (an absolute path or \"..\"); refusing to read a book that may be crafted to overwrite files.",
                nil
            )
        case .tooLarge(let file, let entry, let limit):
            return (
                "\(file): \"\(entry)\" expands to more than \(Self.size(limit)); refusing to read it (a zip bomb, or not a book).",
                nil
            )
        case .unreadableFile(let error):
            return (error.errorDescription ?? "\(error)", error.recoverySuggestion)
        case .sizeMismatch(let file, let entry, let declared):
            return (
                "\(file): \"\(entry)\" expands to more than the \(Self.size(declared)) its zip header declares; the archive is damaged or crafted.",
                "Re-create the EPUB from its source files."
            )
        case .suspiciousCompression(let file, let entry, let ratio):
            return (
                "\(file): \"\(entry)\" is compressed \(ratio) to 1, far beyond any text; refusing to expand it (a zip bomb).",
                nil
            )
        case .missingEntry(let file, let entry, let referencedBy):
            return (
                "\(file): \(referencedBy) names \"\(entry)\", which is not in the archive.",
                "The EPUB is incomplete; repair it or exclude that spine item with the source's \"exclude\"."
            )
        case .unknownSpineItems(let file, let field, let names, let spine):
            return (
                "\(file): \(field) names \(names.map { "\"\($0)\"" }.joined(separator: ", ")), which \(names.count == 1 ? "is" : "are") not in the spine. Spine items: \(spine.joined(separator: ", ")).",
                nil
            )
        case .emptySpine(let file):
            return ("\(file): the EPUB's spine lists no content documents to read.", nil)
        case .encrypted(let file, let entries):
            return (
                "\(file): the book is protected by DRM: META-INF/encryption.xml encrypts \(entries.count) of its files (\(entries.prefix(3).joined(separator: ", "))\(entries.count > 3 ? ", …" : "")), which cannot be read.",
                "Use a DRM-free copy of the book (many stores sell one, or your library's reading app exports one)."
            )
        }
    }
}

extension DocumentError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .malformedMarkup, .notAZip, .notAnEPUB, .unsafeEntryPath, .tooLarge, .suspiciousCompression, .sizeMismatch,
            .unreadableFile, .missingEntry, .unknownSpineItems, .emptySpine, .encrypted:
            .badInput
        }
    }
}
