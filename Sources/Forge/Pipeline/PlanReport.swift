/// What a recipe will produce: an estimate before any audio exists, exact once it is built.
package struct PlanReport: Sendable, Equatable {
    package struct ChapterLine: Sendable, Equatable {
        package var ordinal: Int
        package var title: String
        /// The part (book, volume, section) the chapter is in, as the splitter found it.
        package var part: String?
        package var items: Int
        package var words: Int
        package var itemsBuilt: Int
        /// Built items' real durations plus estimates for the rest.
        package var durationMs: Int
    }

    /// What a build would send to one speech service.
    package struct ServiceEstimate: Sendable, Equatable {
        package var engine: String
        /// Items whose audio neither the output directory nor its store has (one per distinct text and voice).
        package var items: Int
        /// The characters those items' requests carry: what the service bills.
        package var characters: Int
        /// `characters` at the recipe's `pricePerThousandCharacters`; nil without a price.
        package var cost: Double?
        /// Whether items the remote cache holds were taken out (a build downloads them).
        package var remoteCacheChecked = false
        /// The characters of each audio key counted, for the remote cache's check.
        var pending: [String: Int] = [:]
    }

    package var recipePath: String
    package var outputDirectory: String
    package var chapters: [ChapterLine]
    package var items: Int
    package var words: Int
    /// Items whose audio is current in the output directory.
    package var itemsBuilt: Int
    /// Items a build would synthesize (not current and not in the store).
    package var itemsToSynthesize: Int
    package var durationMs: Int
    package var wordsPerMinute: Int
    /// Characters who speak but have no voice in the cast (they speak with the narrator's).
    package var uncastCharacters: [String] = []
    /// Chapters that are probably several whose headings were not found (``ChapterLengthCheck``).
    package var warnings: [Diagnostic] = []
    /// How each source was read: its encoding, and its words left unspoken as front or back matter.
    package var sources: [SourceReading] = []
    /// What a build would send to each speech service the recipe's voices use, by engine name.
    package var services: [ServiceEstimate] = []
    /// The book's title and author as its exports name them (the recipe's, else its first source's).
    package var title = ""
    package var author: String?
    /// The credits the M4B and the ACX set would open and close with (none without those exports).
    package var credits = BookCredits(ExportSettings())

    /// True when every item is built, so `durationMs` is measured, not estimated.
    package var isExact: Bool { itemsBuilt == items }
}
