/// Progress of one item and of the build so far.
public struct ItemProgress: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// Synthesized now (and aligned, in a full build).
        case synthesized
        /// Its audio was already in the store (same key); not synthesized again.
        case reused
        /// Its audio and events were downloaded from the remote cache (digests checked).
        case downloaded
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
    /// Audio made in this run so far, in milliseconds (a running total).
    public var audioMs: Int
    /// This item's own audio length, when it has audio now.
    public var durationMs: Int?
    public var elapsedSeconds: Double
}
