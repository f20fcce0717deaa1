/// What a running build reports, for a live progress line or JSON Lines in CI.
public enum ProgressEvent: Sendable, Equatable {
    /// The output directory is locked and a build row started.
    case started(buildID: Int64, outputDirectory: String)
    /// The split stage finished.
    case split(chapters: Int, items: Int, words: Int, changedItems: Int)
    /// What the speak and align stages will do.
    case planned(upToDate: Int, toSynthesize: Int, toReuse: Int, toAlign: Int)
    /// One item finished (or failed).
    case item(ItemProgress)
    /// Finished items were committed to the manifest.
    case saved(committedItems: Int)
    /// A stop was requested; items in hand are finishing.
    case cancelling
}

/// Progress of one item and of the build so far.
public struct ItemProgress: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// Synthesized now (and aligned, in a full build).
        case synthesized
        /// Its audio was already in the store (same key); not synthesized again.
        case reused
        /// Word timings computed for audio made earlier.
        case aligned
        case failed
    }

    public var itemID: String
    public var ordinal: Int
    public var outcome: Outcome
    public var error: String?
    /// Items finished in this run, and the number this run has to finish.
    public var finished: Int
    public var toFinish: Int
    /// Audio made in this run so far, in milliseconds.
    public var audioMs: Int
    public var elapsedSeconds: Double
}
