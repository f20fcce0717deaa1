/// What the speak stage did: items synthesized, reused from the store, downloaded, timed from
/// their events or failed; the words it loaded and the items it touched, for the stages after it.
struct SpeechOutcome: Sendable {
    var itemsTotal = 0
    var upToDate = 0
    var synthesized = 0
    var reused = 0
    /// Items whose audio was current and only their timings were made again.
    var aligned = 0
    var failures: [ItemFailure] = []
    var cancelled = false
    /// Items of other shards this build left pending (`--shard`).
    var leftToOtherShards = 0
    var traffic = CacheTraffic()
    /// What each speech service was asked, by engine name.
    var serviceUsage: [SpeechServiceUsage] = []
    /// Items this stage recorded something for (their chapters' timelines are recorded again).
    var touchedItems = Set<String>()
    /// Every item's words, when this stage loaded them all (forced alignment reuses them).
    var words: [String: [WordToken]] = [:]
}
