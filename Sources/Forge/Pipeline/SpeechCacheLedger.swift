/// The speak stage's business with the remote cache while it runs: the uploads in flight, the
/// keys the cache is known to hold, the hits made here to compare, and whether hits leave their
/// audio in the cache.
struct SpeechCacheLedger {
    var uploader: CacheUploader?
    /// Audio keys whose entries the cache is known to hold, not yet recorded in the manifest.
    var uploadedKeys: [String] = []
    /// Audio keys spot-checked against the remote cache, with the digest it gave for each.
    var spotChecks: [String: SpotCheck] = [:]
    /// Whether items found in the remote cache get only their events, their audio left there until
    /// something needs its samples (a whole build with the cache, unless `cache.downloadAll` or
    /// forced alignment); a shard makes its chapters' exports and downloads what it takes.
    var leavesAudioInCache: Bool

    init(context: BuildContext) {
        // Forced alignment reads every item's samples: its items' audio is downloaded.
        leavesAudioInCache =
            context.shard == nil && context.recipe.cache?.downloadAll == false
            && context.recipe.alignment.method == .auto
    }
}

/// A remote-cache hit made here instead: the item it was looked up for, and the audio digest the cache gave.
struct SpotCheck {
    var itemID: String
    var digest: String
}
