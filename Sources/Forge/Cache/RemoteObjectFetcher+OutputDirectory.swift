import Foundation

extension RemoteObjectFetcher {
    /// Fetches every audio object a build left in a remote cache into the output directory at
    /// `directory`, for a command that reads items' samples (`export`, `verify`, `check`, a pack);
    /// takes the directory's lock while it does. Returns how many objects it fetched and their bytes
    /// (nothing when none was left). Throws ``RemoteCacheError/audioNotFetched(cache:items:lost:reason:)``
    /// when the cache cannot give them all: the items whose audio it no longer has are pending
    /// again, for the next build to make.
    package static func fetchLeftAudio(
        outputDirectory directory: URL, cancellation: CancellationFlag,
        progress: @escaping @Sendable (_ fetched: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> (objects: Int, bytes: Int) {
        let directory = directory.standardizedFileURL
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(Manifest.fileName).path) else {
            return (0, 0)
        }
        // Most directories have none: asked without the lock or a write, so a command that only reads stays so.
        guard try Manifest.reading(directory: directory, { try $0.remoteObjectTotals().objects }) > 0 else {
            return (0, 0)
        }
        let lock = try OutputLock(directory: directory)
        defer { withExtendedLifetime(lock) {} }
        let manifest = try Manifest(directory: directory)
        let remote = try manifest.remoteObjects()
        guard !remote.isEmpty else { return (0, 0) }
        let total = remote.count
        let fetcher = RemoteObjectFetcher(store: ObjectStore(root: directory), manifest: manifest)
        let outcome = try await fetcher.fetch(
            remote.values.sorted { $0.object.key < $1.object.key }, cancellation: cancellation
        ) { progress($0, total) }
        if cancellation.isCancelled { return (outcome.fetched.count, outcome.bytes) }
        let cache = remote.values.first?.cache ?? ""
        if !outcome.lost.isEmpty {
            let lost = Set(outcome.lost)
            try manifest.markPending(try manifest.items().filter { $0.audioKey.map(lost.contains) == true }.map(\.id))
            try manifest.forgetRemote(outcome.lost)
        }
        let missing = total - outcome.fetched.count
        guard missing == 0 else {
            let reason = outcome.failure?.detail ?? "it no longer has the audio of \(outcome.lost.count) of them"
            throw RemoteCacheError.audioNotFetched(
                cache: cache, items: missing, lost: outcome.lost.count, reason: reason)
        }
        return (outcome.fetched.count, outcome.bytes)
    }
}
