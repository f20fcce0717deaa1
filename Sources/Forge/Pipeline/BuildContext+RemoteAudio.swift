import Foundation

extension BuildContext {
    /// Fetches the audio of `keys` that a build left in the remote cache, so `phase` can read its
    /// samples. What the cache cannot give (it lost a blob, sent other bytes, or cannot be reached)
    /// is made here: those items are synthesized again and their chapters laid out again. Returns
    /// how many items were synthesized, and the cache traffic.
    func fetchRemoteAudio(_ keys: Set<String>, for phase: String, launch: WorkerPool.Launch) async throws
        -> (synthesized: Int, traffic: CacheTraffic)
    {
        var traffic = CacheTraffic()
        guard !keys.isEmpty, !cancellation.isCancelled else { return (0, traffic) }
        let remote = try manifest.remoteObjects().filter { keys.contains($0.key) }
        guard !remote.isEmpty else { return (0, traffic) }
        var caches: [String: RemoteCache] = [:]
        if let cache = speechCache?.remote, !remoteCacheHealth.isUnavailable { caches[cache.settings.name] = cache }
        // Audio left in a cache this build cannot use is made here rather than asked for.
        let reachable = remote.values.filter { caches[$0.cache] != nil || !remoteCacheHealth.isUnavailable }
        let outcome = try await RemoteObjectFetcher(store: store, manifest: manifest).fetch(
            reachable.sorted { $0.object.key < $1.object.key }, caches: caches, cancellation: cancellation)
        traffic.fetchedAudio += outcome.fetched.count
        traffic.fetchedAudioBytes += outcome.bytes
        if !outcome.fetched.isEmpty {
            progress(.fetchedAudio(items: outcome.fetched.count, bytes: outcome.bytes, phase: phase))
        }
        guard !cancellation.isCancelled else { return (0, traffic) }
        if let failure = outcome.failure { try cacheFailed(failure) }
        let missing = Set(remote.keys).subtracting(outcome.fetched)
        guard !missing.isEmpty else { return (0, traffic) }
        if !outcome.lost.isEmpty {
            progress(
                .diagnostic(
                    .warning(
                        "the remote cache no longer gives the audio of \(outcome.lost.count) items this build left in it (\(outcome.lost.prefix(3).map { String($0.prefix(12)) + "…" }.joined(separator: ", "))); they are synthesized here."
                    )))
        }
        try manifest.forgetRemote(Array(missing))
        var again = StageWork(context: self)
        again.cacheLedger.leavesAudioInCache = false
        try await again.speakAndAlign(speak: true, align: recipe.alignment.method == .auto, launch: launch)
        try TimelineRecorder(store: store, manifest: manifest, settings: recipe.exports).record(
            touched: again.tally.touchedItems, cancellation: cancellation)
        return (again.tally.synthesized, traffic + again.traffic)
    }
}
