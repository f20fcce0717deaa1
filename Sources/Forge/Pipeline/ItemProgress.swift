/// Progress of one item and of the build so far.
package struct ItemProgress: Sendable, Equatable {
    package enum Outcome: String, Sendable {
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

    package var itemID: String
    package var ordinal: Int
    package var outcome: Outcome
    package var error: String?
    /// Items finished in this run, and the number this run has to finish.
    package var finished: Int
    package var toFinish: Int
    /// Audio made in this run so far, in milliseconds (a running total).
    package var audioMs: Int
    /// This item's own audio length, when it has audio now.
    package var durationMs: Int?
    package var elapsedSeconds: Double
}
