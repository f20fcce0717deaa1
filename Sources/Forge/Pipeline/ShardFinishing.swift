/// What a shard finished of its chapters and shared through the remote cache.
struct ShardFinishing: Sendable, Equatable {
    /// Verification chunks of its chapters transcribed here (the others came from the cache).
    var transcribedChunks = 0
    /// Its chapters' AAC encodings made here, taken from the cache, and sent to it.
    var encodedChapters = 0
    var downloadedEncodings = 0
    var uploadedEncodings = 0
    /// Its chapters' ACX files mastered here, and sent to the cache.
    var masteredACXFiles = 0
    var uploadedACXFiles = 0
    var traffic = CacheTraffic()
}
