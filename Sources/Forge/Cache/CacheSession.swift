import Foundation

/// A stage's traffic with the remote cache: what it moved (``traffic``), the build's shared
/// ``RemoteCacheHealth`` (a cache that failed once is not asked again, by this stage or another),
/// and what a failure does — one warning and a local build, or the build's end when the recipe
/// requires the cache. Every transfer runs in ``BoundedTasks``: at most
/// ``RemoteCache/connections`` at once, Ctrl-C cutting short what is in flight.
struct CacheSession {
    let remote: RemoteCache
    let health: RemoteCacheHealth
    /// Whether the recipe requires the cache: a failure ends the build instead of a warning.
    let required: Bool
    let store: ObjectStore
    let manifest: Manifest
    let cancellation: CancellationFlag
    /// Told what a person should know (an entry refused, the cache set aside).
    let warn: @Sendable (Diagnostic) -> Void
    var traffic = CacheTraffic()

    /// The cache failed in this build: nothing more is asked of it.
    var isUnavailable: Bool { health.isUnavailable }

    /// The chapters' finished objects (AAC encodings, ACX files) in this cache.
    var objects: ChapterObjectCache { ChapterObjectCache(remote: remote) }

    /// Sets the cache aside for the rest of the build, saying so once (a warning), or ends the
    /// build when the cache is required. A request cut short by Ctrl-C is not the cache's failure.
    func failed(_ error: RemoteCacheError) throws {
        try Self.fail(
            error, health: health, required: required, cache: remote.settings.name, cancellation: cancellation,
            warn: warn)
    }

    /// ``failed(_:)`` for a caller that holds the parts, not a session.
    static func fail(
        _ error: RemoteCacheError, health: RemoteCacheHealth, required: Bool, cache: String,
        cancellation: CancellationFlag, warn: (Diagnostic) -> Void
    ) throws {
        guard health.markFailed() else { return }
        guard !cancellation.isCancelled else { return }
        if required { throw RemoteCacheError.required(cache: cache, reason: error.detail) }
        warn(.warning("\(ErrorReason.message(error)) Building locally; the cache is not used again in this build."))
    }

    /// Fetches the cache's entries at `keys`: those it has, by key. A failing cache stops the
    /// lookups (``failed(_:)``).
    mutating func entries(_ keys: [String]) async throws -> [String: Data] {
        guard !keys.isEmpty, !isUnavailable else { return [:] }
        let cache = remote
        var found: [String: Data] = [:]
        var failure: RemoteCacheError?
        await BoundedTasks.run(
            keys, limit: RemoteCache.connections, cancellation: cancellation,
            perform: { key -> Result<Data?, RemoteCacheError> in
                do throws(RemoteCacheError) { return .success(try await cache.get(.actionCache, key)) } catch {
                    return .failure(error)
                }
            },
            take: { key, result in
                switch result {
                case .success(let data?): found[key] = data
                case .success(nil): break
                case .failure(let error):
                    failure = failure ?? error
                    return .startNoMore
                }
                return .goOn
            })
        if let failure { try failed(failure) }
        return found
    }

    /// Stores entries (small JSON documents without blobs) in a writable cache; returns how many arrived.
    mutating func putEntries(_ entries: [(String, Data)]) async throws -> Int {
        guard !remote.settings.readOnly, !isUnavailable, !cancellation.isCancelled, !entries.isEmpty else { return 0 }
        let cache = remote
        var failure: RemoteCacheError?
        var count = 0
        await BoundedTasks.run(
            entries, limit: RemoteCache.connections, cancellation: cancellation,
            perform: { entry -> RemoteCacheError? in
                do throws(RemoteCacheError) {
                    try await cache.put(.actionCache, entry.0, data: entry.1)
                    return nil
                } catch { return error }
            },
            take: { _, error in
                guard let error else {
                    count += 1
                    return .goOn
                }
                failure = failure ?? error
                return .startNoMore
            })
        if let failure { try failed(failure) }
        return count
    }
}
