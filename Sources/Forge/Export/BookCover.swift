import Foundation

/// The cover image the M4B and the EPUB carry, read once per export: the recipe's (while it is
/// still a regular image file there: a link put in its place is not followed), else the cover of
/// the EPUB the book was read from. Its digest is among the export's stamped inputs, so a new
/// image makes new exports.
struct BookCover: Sendable, Equatable {
    let data: Data
    let isPNG: Bool

    var fileExtension: String { isPNG ? "png" : "jpg" }
    var mediaType: String { isPNG ? "image/png" : "image/jpeg" }
    /// The SHA-256 of its bytes.
    var digest: String { ContentHash.sha256Hex(Array(data)) }

    /// The cover for `settings` and a book whose items were read from `sourcePaths`; nil when
    /// there is none (or it cannot be read).
    static func resolve(_ settings: ExportSettings, sourcePaths: some Sequence<String>) -> BookCover? {
        if let url = settings.cover {
            guard OwnedDirectory.entry(at: url.path) == .file, let data = try? Data(contentsOf: url) else { return nil }
            return BookCover(data: data, isPNG: url.pathExtension.lowercased() == "png")
        }
        guard let source = NarratedEPUB.sourceBook(ofPaths: sourcePaths),
            let image = EPUBReader().coverImage(source, name: source.lastPathComponent)
        else { return nil }
        return BookCover(data: image.data, isPNG: image.fileExtension == "png")
    }
}
