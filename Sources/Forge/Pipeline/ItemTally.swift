/// What a stage did to the book's items, counted as it records them: the figures its outcome
/// (``SpeechOutcome``, ``AlignmentOutcome``) and its progress events report.
struct ItemTally: Sendable {
    var itemsTotal = 0
    var upToDate = 0
    var synthesized = 0
    var reused = 0
    /// Items whose audio was current and only their timings were made.
    var aligned = 0
    var failures: [ItemFailure] = []
    var cancelled = false
    /// Items finished in this stage, of the `toFinish` it planned.
    var finished = 0
    var toFinish = 0
    /// Audio made or taken in this stage, in milliseconds.
    var audioMs = 0
    /// Items of other shards this build left pending.
    var leftToOtherShards = 0
    /// Items this stage recorded something for (their chapters' timelines are recorded again).
    var touchedItems = Set<String>()

    /// Counts one item finished with `outcome`; `traffic` counts downloads.
    mutating func count(
        itemID: String, outcome: ItemProgress.Outcome, error: String?, audioMs: Int, traffic: inout CacheTraffic
    ) {
        touchedItems.insert(itemID)
        finished += 1
        self.audioMs += audioMs
        switch outcome {
        case .synthesized: synthesized += 1
        case .reused: reused += 1
        case .downloaded: traffic.downloaded += 1
        case .aligned: aligned += 1
        case .failed: failures.append(ItemFailure(itemID: itemID, error: error ?? "unknown error"))
        }
    }
}
