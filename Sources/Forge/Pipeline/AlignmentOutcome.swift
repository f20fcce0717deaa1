/// What the forced-alignment stage did: items timed with pocketsphinx (or their alignments reused
/// or downloaded), and those it could not time.
struct AlignmentOutcome: Sendable {
    var aligned = 0
    var failures: [ItemFailure] = []
    var cancelled = false
    var traffic = CacheTraffic()
    var touchedItems = Set<String>()
}
