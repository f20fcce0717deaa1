/// Where an item stands in the pipeline, as stored in `items.status`.
package enum ItemStatus: String, Sendable, Codable, CaseIterable {
    /// Split, not yet synthesized (or its audio is out of date).
    case pending
    /// Audio made, word timings not yet aligned.
    case spoken
    /// Audio and word timings are current.
    case done
    /// Synthesis or alignment failed; `items.error` says why. A rerun retries it.
    case failed
}
