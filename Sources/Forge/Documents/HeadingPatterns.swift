/// A recipe's own heading rules for plain text (`split.headings`), for books whose headings the
/// built-in shapes miss or mistake: each kind's regular expression (Swift `Regex` syntax, searched
/// in a paragraph of one line; anchor it with `^…$`). Given, they replace the built-in detection:
/// a one-line paragraph is a heading of the first kind whose pattern it matches (chapter, part,
/// section), and a kind without a pattern is never found.
package struct HeadingPatterns: Sendable, Equatable {
    package enum RecipeKey: String, CaseIterable, Sendable { case chapter, part, section }

    /// Lines longer than this are never tried: a heading is short, and a pattern's cost stays bounded.
    static let maximumLineLength = 200

    package var chapter: String?
    package var part: String?
    package var section: String?

    package init(chapter: String? = nil, part: String? = nil, section: String? = nil) {
        self.chapter = chapter
        self.part = part
        self.section = section
    }

    /// Why `pattern` is not a regular expression Forge can use, or nil when it is.
    package static func problem(with pattern: String) -> String? {
        guard !pattern.isEmpty else { return "it is empty" }
        do {
            let expression = try Regex(pattern)
            return "".contains(expression) ? "it matches an empty line" : nil
        } catch {
            return "\(error)"
        }
    }

    /// The patterns compiled, in the order they are tried.
    func compiled() -> [(PlainTextReader.HeadingShape, Regex<AnyRegexOutput>)] {
        [(PlainTextReader.HeadingShape.chapter, chapter), (.part, part), (.section, section)].compactMap {
            shape, pattern in
            pattern.flatMap { try? Regex($0) }.map { (shape, $0) }
        }
    }
}
