/// What a recipe will produce: an estimate before any audio exists, exact once it is built.
public struct PlanReport: Sendable, Equatable {
    public struct ChapterLine: Sendable, Equatable {
        public var ordinal: Int
        public var title: String
        public var items: Int
        public var words: Int
        public var itemsBuilt: Int
        /// Built items' real durations plus estimates for the rest.
        public var durationMs: Int
    }

    public var recipePath: String
    public var outputDirectory: String
    public var chapters: [ChapterLine]
    public var items: Int
    public var words: Int
    /// Items whose audio is current in the output directory.
    public var itemsBuilt: Int
    /// Items a build would synthesize (not current and not in the store).
    public var itemsToSynthesize: Int
    public var durationMs: Int
    public var wordsPerMinute: Int
    /// Characters who speak but have no voice in the cast (they speak with the narrator's).
    public var uncastCharacters: [String] = []

    /// True when every item is built, so `durationMs` is measured, not estimated.
    public var isExact: Bool { itemsBuilt == items }
}
