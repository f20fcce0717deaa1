import Foundation

/// Where each export is written under `exports/`, named in one place: the book's files after its
/// title, each chapter's after its stem (``ChapterTimeline/fileStem``, `chapter-003`), the ACX
/// set's after its track number and the chapter's title.
enum ExportPaths {
    /// A title's letters and digits, lowercased and joined by "-", kept under 120 bytes (a file name
    /// may have 255): "Pride and Prejudice" → "pride-and-prejudice"; "book" when none is left.
    static func slug(_ title: String) -> String {
        var slug = ""
        for word in title.lowercased().unicodeScalars.map({ CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }
        ).joined()
            .split(separator: "-")
        {
            let next = slug.isEmpty ? String(word) : slug + "-" + word
            if next.utf8.count > 120 {
                if slug.isEmpty { slug = String(scalars: word.unicodeScalars.prefix(30)) }
                break
            }
            slug = next
        }
        return slug.isEmpty ? "book" : slug
    }

    /// The EPUB 3 made for the book: `epub/pride-and-prejudice.epub`.
    static func epub(title: String) -> String { "epub/\(slug(title)).epub" }

    /// The M4B: `m4b/pride-and-prejudice.m4b`.
    static func m4b(title: String) -> String { "m4b/\(slug(title)).m4b" }

    /// A chapter's audio file: `audio/chapter-003.wav`.
    static func chapterAudio(_ timeline: ChapterTimeline, format: AudioSettings.Format) -> String {
        "audio/\(timeline.fileStem).\(format.fileExtension)"
    }

    /// A chapter's word and sentence timings: `json/chapter-003.json`.
    static func timings(_ timeline: ChapterTimeline) -> String { "json/\(timeline.fileStem).json" }

    /// A chapter's captions: `captions/chapter-003.vtt` (or `.srt`).
    static func captions(_ timeline: ChapterTimeline, fileExtension: String) -> String {
        "captions/\(timeline.fileStem).\(fileExtension)"
    }

    /// A chapter's read-along page: `html/chapter-003.html`.
    static func page(_ timeline: ChapterTimeline) -> String { "html/\(timeline.fileStem).html" }

    /// An ACX file's name without its extension, by its track number in a set of `width` digits:
    /// `acx/03-chapter-2` for a chapter, `acx/00-opening-credits` for a credit.
    static func acx(track: Int, width: Int, title: String) -> String {
        "acx/\(track.zeroPadded(to: width))-\(slug(title))"
    }
}
