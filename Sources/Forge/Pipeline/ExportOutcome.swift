/// What the export stage did: the files it wrote, and the chapters' finishing it did itself or took
/// from the remote cache (an assembling build after shards should take everything and make nothing).
struct ExportOutcome: Sendable, Equatable {
    /// Files written (relative to the output directory); empty when the exports were up to date.
    var files: [String] = []
    /// Chapters whose AAC encoding this build made, and those it took from the remote cache.
    var encodedChapters = 0
    var downloadedEncodings = 0
    /// ACX chapter files taken from the remote cache (a shard mastered them).
    var downloadedACXFiles = 0
    /// Items synthesized again because the audio a build left in the remote cache could not be fetched.
    var synthesizedItems = 0
    var traffic = CacheTraffic()
}
