/// What the speak stage did: items synthesized, reused from the store, downloaded, timed from
/// their events or failed; the items it touched, for the stages after it.
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
}

extension SpeechOutcome {
    /// The outcome a speak stage's tally, traffic and services' use make.
    init(tally: ItemTally, traffic: CacheTraffic, serviceUsage: [SpeechServiceUsage]) {
        self.init(
            itemsTotal: tally.itemsTotal, upToDate: tally.upToDate, synthesized: tally.synthesized,
            reused: tally.reused, aligned: tally.aligned, failures: tally.failures, cancelled: tally.cancelled,
            leftToOtherShards: tally.leftToOtherShards, traffic: traffic, serviceUsage: serviceUsage,
            touchedItems: tally.touchedItems)
    }
}
