import Foundation

/// Fetches audio a build left in a remote cache (``Manifest/RemoteObject``) into the store, when a
/// stage or a command needs its samples: a few at a time, each blob's size and SHA-256 checked
/// against what the manifest recorded before it is stored. What a cache no longer has (or sends
/// wrong) is reported as lost, so its items can be made again; a cache that cannot be reached
/// stops the fetch.
package struct RemoteObjectFetcher: Sendable {
    let store: ObjectStore
    let manifest: Manifest

    package init(store: ObjectStore, manifest: Manifest) {
        self.store = store
        self.manifest = manifest
    }

    /// What a fetch did.
    package struct Outcome: Sendable {
        /// Keys now in the store (no longer remote).
        package var fetched: [String] = []
        package var bytes = 0
        /// Keys the cache did not have, or sent other bytes for.
        package var lost: [String] = []
        /// Why fetching stopped early (the cache could not be used), if it did.
        package var failure: RemoteCacheError?
    }

    /// Fetches `objects`, asking each one's cache (`caches` by name; a cache not given is made
    /// from its name, which is its URL, with the header from the environment). `fetchedOne` is told
    /// the running count. Fetched objects are recorded as local as they arrive.
    package func fetch(
        _ objects: [Manifest.RemoteObject], caches given: [String: RemoteCache] = [:], cancellation: CancellationFlag,
        fetchedOne: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws(StoreError) -> Outcome {
        var outcome = Outcome()
        var caches = given
        var pending: [(Manifest.RemoteObject, RemoteCache)] = []
        for remote in objects {
            if store.contains(relativePath: remote.object.path) {
                outcome.fetched.append(remote.object.key)
                continue
            }
            if caches[remote.cache] == nil, let url = URL(string: remote.cache) {
                caches[remote.cache] = try? RemoteCache(settings: RemoteCacheSettings(url: url))
            }
            guard let cache = caches[remote.cache] else {
                outcome.failure = .unavailable(cache: remote.cache, reason: "its address cannot be used")
                break
            }
            pending.append((remote, cache))
        }
        let store = store
        await BoundedTasks.run(
            outcome.failure == nil ? pending : [], limit: RemoteCache.connections, cancellation: cancellation,
            perform: { remote, cache in await Self.fetchOne(remote, from: cache, into: store) },
            take: { _, result in
                switch result {
                case .success((let key, let bytes)):
                    outcome.fetched.append(key)
                    outcome.bytes += bytes
                    fetchedOne(outcome.fetched.count)
                case .failure(.malformedEntry(_, let item, _)), .failure(.digestMismatch(_, let item, _, _, _)),
                    .failure(.blobSize(_, let item, _, _)):
                    outcome.lost.append(item)
                case .failure(let error):
                    outcome.failure = outcome.failure ?? error
                    return .cancelRest
                }
                return .goOn
            })
        try manifest.forgetRemote(outcome.fetched)
        return outcome
    }

    /// One object's blob, checked and stored; errors name the object by its key.
    private static func fetchOne(_ remote: Manifest.RemoteObject, from cache: RemoteCache, into store: ObjectStore)
        async -> Result<(String, Int), RemoteCacheError>
    {
        let object = remote.object
        let data: Data
        do {
            guard let fetched = try await cache.get(.contentAddressable, object.sha256, expectedBytes: object.bytes)
            else {
                return .failure(
                    .malformedEntry(cache: remote.cache, item: object.key, reason: "its audio blob is missing"))
            }
            data = fetched
        } catch let .badAnswer(_, _, reason) {
            return .failure(.blobSize(cache: remote.cache, item: object.key, role: "audio", detail: reason))
        } catch {
            return .failure(error)
        }
        let found = ContentHash.sha256Hex(data)
        guard found == object.sha256 else {
            return .failure(
                .digestMismatch(
                    cache: remote.cache, item: object.key, role: "audio", expected: object.sha256, found: found))
        }
        do {
            _ = try store.store(
                key: object.key, fileExtension: (object.path as NSString).pathExtension, role: .audio,
                mimeType: object.mimeType, data: data,
                durationMs: object.durationMs, sampleRate: object.sampleRate, frames: object.frames,
                sha256: object.sha256)
        } catch {
            return .failure(
                .localStore(reason: "\(object.path): storing what the cache sent failed: \(error.localizedDescription)")
            )
        }
        return .success((object.key, data.count))
    }
}
