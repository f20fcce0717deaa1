extension SpeechCache {
    /// Which of `audioKeys` the cache has an entry for, asked with `HEAD` requests (nothing is
    /// downloaded); nil when the cache could not be asked.
    package func holds(_ audioKeys: [String]) async -> Set<String>? {
        var held = Set<String>()
        var failed = false
        await BoundedTasks.run(
            audioKeys, limit: RemoteCache.connections, cancellation: nil,
            perform: { [remote] key -> Result<Bool, RemoteCacheError> in
                do throws(RemoteCacheError) {
                    return .success(try await remote.contains(.actionCache, SpeechCacheEntry.actionKey(audioKey: key)))
                } catch {
                    return .failure(error)
                }
            },
            take: { key, answer in
                switch answer {
                case .success(true): held.insert(key)
                case .success(false): break
                case .failure:
                    failed = true
                    return .cancelRest
                }
                return .goOn
            })
        return failed ? nil : held
    }
}
