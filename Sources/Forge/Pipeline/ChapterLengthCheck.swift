import Foundation

/// Says when a book's chapters were probably not found: one chapter for a long text, or a chapter
/// far longer than the book's others. The warning names the chapter and its length, and the
/// recipe's `split.headings` with an example made from the short lines the book does have, so a
/// player's chapter list is not one 11-hour chapter without anybody being told.
package struct ChapterLengthCheck: Sendable {
    /// One chapter and its (estimated or measured) length.
    package struct ChapterLength: Sendable, Equatable {
        package var ordinal: Int
        package var title: String
        package var durationMs: Int

        package init(ordinal: Int, title: String, durationMs: Int) {
            self.ordinal = ordinal
            self.title = title
            self.durationMs = durationMs
        }
    }

    /// A chapter longer than this that holds three quarters of the book: its chapters were not found.
    static let longSingleChapterMs = 2 * 3_600_000
    /// A chapter over this and ``farLongerFactor`` times the median of the others is suspect.
    static let longChapterMs = 3 * 3_600_000
    static let farLongerFactor = 4
    /// A chapter over this is suspect whatever the others are: no chapter a listener navigates is so long.
    static let veryLongChapterMs = 6 * 3_600_000
    /// In a book over this, a chapter holding more than half of it is suspect.
    static let longBookMs = 5 * 3_600_000
    /// At most this many chapters are named.
    static let maximumNamed = 3

    package var recipeFile: String

    package init(recipeFile: String) {
        self.recipeFile = recipeFile
    }

    /// The chapters a reader would find too long, each with why.
    package static func suspectChapters(_ chapters: [ChapterLength]) -> [ChapterLength] {
        let total = chapters.reduce(0) { $0 + $1.durationMs }
        let sorted = chapters.map(\.durationMs).sorted()
        return chapters.filter { chapter in
            // Nearly the whole of a long text: its chapters were not found (a title page before it aside).
            if chapter.durationMs > longSingleChapterMs && chapter.durationMs * 4 > total * 3 { return true }
            // Far longer than the others' median.
            var others = sorted
            others.remove(at: others.firstIndex(of: chapter.durationMs)!)
            let median = others.isEmpty ? 0 : others[others.count / 2]
            if chapter.durationMs > longChapterMs && chapter.durationMs > median * farLongerFactor { return true }
            return (total > longBookMs && chapter.durationMs * 2 > total) || chapter.durationMs > veryLongChapterMs
        }
    }

    /// The warnings for a book split into `chapters`, whose paragraphs (for the example) are `items`.
    package func warnings(_ chapters: [ChapterLength], items: [SpeakableItem]) -> [Diagnostic] {
        let suspects = Self.suspectChapters(chapters)
        guard !suspects.isEmpty else { return [] }
        let total = chapters.reduce(0) { $0 + $1.durationMs }
        let suggestion = Self.suggestion(items.filter { item in suspects.contains { $0.ordinal == item.chapter } })
        var diagnostics = suspects.prefix(Self.maximumNamed).map { chapter in
            let length = Self.clock(chapter.durationMs)
            let message =
                chapters.count == 1
                ? "the book was split into one chapter, \"\(chapter.title)\", \(length) long: its chapter headings were not found, so players will show no chapters."
                : "chapter \(chapter.ordinal), \"\(chapter.title)\", is \(length) long of the book's \(Self.clock(total)): it may hold chapters whose headings were not found."
            return Diagnostic(.warning, message, file: recipeFile, field: "split.headings", suggestion: suggestion)
        }
        if suspects.count > Self.maximumNamed {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "\(suspects.count - Self.maximumNamed) more chapters are over \(Self.clock(Self.longChapterMs)) long.",
                    file: recipeFile, field: "split.headings"))
        }
        return diagnostics
    }

    /// What to put in the recipe: `split.headings` with a pattern for the most frequent short line of
    /// the long chapters that looks like a heading (a counter in a decoration, or a line in capitals),
    /// or a pattern of the usual shape when there is none.
    static func suggestion(_ items: [SpeakableItem]) -> String {
        var counts: [String: (count: Int, example: String)] = [:]
        var order: [String] = []
        for item in items where item.kind == .paragraph && item.text.count <= 60 {
            guard let pattern = headingPattern(for: item.text) else { continue }
            if counts[pattern] == nil { order.append(pattern) }
            counts[pattern, default: (0, item.text)].count += 1
        }
        let best = order.filter { counts[$0]!.count >= 3 }.max { counts[$0]!.count < counts[$1]!.count }
        let pattern = best ?? "^CHAPTER [0-9IVXLC]+\\.?$"
        let json = "\"split\": { \"headings\": { \"chapter\": \(Self.jsonString(pattern)) } }"
        if let best, let (count, example) = counts[best] {
            return
                "Give the book its headings in the recipe, e.g. \(json) for lines such as \"\(example)\" (seen \(count) times in it)."
        }
        return
            "Give the book its headings in the recipe, e.g. \(json) with a pattern that matches the book's own chapter lines."
    }

    /// A regular expression matching `line` and lines of its shape, if it may be a heading: a counter
    /// in a decoration (the counter by its kind, anything after it for a title), or capitals alone.
    static func headingPattern(for line: String) -> String? {
        if let reading = CounterLine.readings(of: line).first {
            let counter =
                switch reading.kind {
                case .digits: "[0-9]+"
                case .upperRoman: "[IVXLCDM]+"
                case .lowerRoman: "[ivxlcdm]+"
                case .words: "[A-Za-z-]+"
                case .upperLetter: "[A-Z]"
                case .lowerLetter: "[a-z]"
                }
            // The label's case as the book has it ("CHAPTER", "Chapter"): the shape keeps it in lower case.
            var pattern = "(?i)"
            for character in reading.shape {
                switch character {
                case "#": pattern += counter
                case "…": pattern += ".+"
                case " ": pattern += " +"
                default: pattern += escaped(character)
                }
            }
            return "^" + pattern + "$"
        }
        // A line in capitals that begins with a letter and is no one's words (no quotes) nor cut off.
        let letters = line.unicodeScalars.filter(\.properties.isAlphabetic)
        guard letters.count >= 3, letters.allSatisfy(\.properties.isUppercase), line.split(separator: " ").count <= 8,
            line.first?.isLetter == true, !line.contains(where: { "\"“”‘'".contains($0) }),
            !line.hasSuffix(","), !line.hasSuffix("-"), !line.hasSuffix("—")
        else { return nil }
        return "^[A-Z][A-Z0-9 ,;:.'’-]+$"
    }

    static func escaped(_ character: Character) -> String {
        "\\^$.|?*+()[]{}".contains(character) ? "\\" + String(character) : String(character)
    }

    static func jsonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func clock(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        return String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }
}
