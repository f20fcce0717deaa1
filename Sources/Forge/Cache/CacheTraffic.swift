/// What a stage moved through the remote cache; the build's summary adds up every stage's.
struct CacheTraffic: Sendable, Equatable {
    /// Items downloaded (synthesized elsewhere, every digest checked) and their bytes.
    var downloaded = 0
    var downloadedBytes = 0
    var uploaded = 0
    var uploadedBytes = 0
    /// Verification chunks taken from the cache, and sent to it.
    var downloadedChunks = 0
    var uploadedChunks = 0
    /// Forced alignments taken from the cache, and sent to it.
    var downloadedAlignments = 0
    var uploadedAlignments = 0
    /// Downloaded items made here again and compared, and how many came out other bytes.
    var spotChecked = 0
    var spotCheckMismatches = 0
    /// Items whose audio was left in the cache (their events downloaded), and the audio's bytes.
    var leftInCache = 0
    var leftInCacheBytes = 0
    /// Audio left in the cache by this build or an earlier one, fetched because a stage needed its samples.
    var fetchedAudio = 0
    var fetchedAudioBytes = 0

    static func + (left: CacheTraffic, right: CacheTraffic) -> CacheTraffic {
        CacheTraffic(
            downloaded: left.downloaded + right.downloaded,
            downloadedBytes: left.downloadedBytes + right.downloadedBytes,
            uploaded: left.uploaded + right.uploaded, uploadedBytes: left.uploadedBytes + right.uploadedBytes,
            downloadedChunks: left.downloadedChunks + right.downloadedChunks,
            uploadedChunks: left.uploadedChunks + right.uploadedChunks,
            downloadedAlignments: left.downloadedAlignments + right.downloadedAlignments,
            uploadedAlignments: left.uploadedAlignments + right.uploadedAlignments,
            spotChecked: left.spotChecked + right.spotChecked,
            spotCheckMismatches: left.spotCheckMismatches + right.spotCheckMismatches,
            leftInCache: left.leftInCache + right.leftInCache,
            leftInCacheBytes: left.leftInCacheBytes + right.leftInCacheBytes,
            fetchedAudio: left.fetchedAudio + right.fetchedAudio,
            fetchedAudioBytes: left.fetchedAudioBytes + right.fetchedAudioBytes)
    }
}
