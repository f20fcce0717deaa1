/// What the speak stage did: items synthesized, reused from the store, downloaded, timed from
/// their events or failed (its ``ItemTally``), its traffic with the remote cache, and what each
/// speech service was asked.
struct SpeechOutcome: Sendable {
    var items = ItemTally()
    var traffic = CacheTraffic()
    /// What each speech service was asked, by engine name.
    var serviceUsage: [SpeechServiceUsage] = []
}
