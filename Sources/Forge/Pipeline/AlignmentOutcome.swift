/// What the forced-alignment stage did: items timed with pocketsphinx (or their alignments reused
/// or downloaded) and those it could not time (its ``ItemTally``), and its remote-cache traffic.
struct AlignmentOutcome: Sendable {
    var items = ItemTally()
    var traffic = CacheTraffic()
}
