/// The lines where a Project Gutenberg file's own text starts and ends, in the wordings Gutenberg
/// has used over the years and in copies cleaned of their asterisks.
enum GutenbergMarkers {
    /// `*** START OF THE PROJECT GUTENBERG EBOOK DRACULA ***`, `START OF THIS PROJECT GUTENBERG EBOOK …`,
    /// `***START OF THE PROJECT GUTENBERG EBOOK …***`, and an older header's last line
    /// `*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*`. `line` is in capitals.
    static func isStart(_ line: String) -> Bool {
        let folded = fold(line)
        return folded.hasPrefix("START OF THE PROJECT GUTENBERG") || folded.hasPrefix("START OF THIS PROJECT GUTENBERG")
            || (folded.hasPrefix("END THE SMALL PRINT") && line.contains("*END*"))
            || folded.hasPrefix("START OF THE PROJECT GUTENBERG EBOOK")
    }

    /// `*** END OF THE PROJECT GUTENBERG EBOOK …`, `End of the Project Gutenberg EBook of …`,
    /// `End of Project Gutenberg's …`, `End of The Project Gutenberg Etext of …`. `line` is in capitals.
    static func isEnd(_ line: String) -> Bool {
        let folded = fold(line)
        guard folded.hasPrefix("END OF") else { return false }
        return folded.contains("PROJECT GUTENBERG") && folded.count <= 160
    }

    /// The line without leading asterisks and white space, and one space between words.
    static func fold(_ line: String) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "*" || $0 == "\r" }).joined(separator: " ")
    }
}
