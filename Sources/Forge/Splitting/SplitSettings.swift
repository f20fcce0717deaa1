/// How source text is cut into speakable items.
package struct SplitSettings: Sendable, Equatable {
    /// The keys of the recipe's `split` object (read by `SplitSettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable {
        case unit, maxCharacters, announceCharacters, keepGutenbergMatter, keepFrontMatter, headings
    }

    /// The unit one item holds.
    package enum Unit: String, Sendable, CaseIterable {
        /// A paragraph per item, cut at sentence boundaries when longer than `maxCharacters`.
        case paragraph
        /// A sentence per item.
        case sentence
        /// A line per item (each non-empty line of the source, a `<br>`-separated line of HTML, a
        /// Markdown line): verse, scripts, one caption per line; cut like a paragraph when longer
        /// than `maxCharacters`.
        case line
    }

    /// When the narrator names the character who speaks a dialogue line.
    package enum Announcement: String, Sendable, CaseIterable {
        /// Never: the voice alone tells who speaks.
        case never
        /// Before a line whose speaker differs from the previous line's.
        case whenSpeakerChanges
        /// Before every line.
        case always
    }

    package static let allowedMaxCharacters = 40...100_000

    package var unit: Unit
    /// The longest item, in characters (Unicode scalars).
    package var maxCharacters: Int
    /// Whether dialogue lines are preceded by an announcement item (the character's name, in the narrator's voice).
    package var announceCharacters: Announcement
    /// Read a Project Gutenberg text's header, licence and footer too (dropped by default).
    package var keepGutenbergMatter = false
    /// Speak a book's front and back matter too: title pages, imprints, copyright lines, colophons,
    /// one-line dedications, contents lists (not spoken by default).
    package var keepFrontMatter = false
    /// The recipe's own heading rules for plain text; nil: the built-in shapes.
    package var headings: HeadingPatterns?
    /// `"headings": "markdown"`: headings only where the markup puts them — a plain-text source is
    /// read as Markdown (`#` lines), and no heading of Markdown or HTML is taken for a part by its words.
    package var headingsFromMarkup = false

    package init(unit: Unit = .paragraph, maxCharacters: Int = 1000, announceCharacters: Announcement = .never) {
        self.announceCharacters = announceCharacters
        self.unit = unit
        self.maxCharacters = maxCharacters
    }
}
