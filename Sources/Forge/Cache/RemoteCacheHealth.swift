import Synchronization

/// Whether the remote cache has failed in this build: the one thing about the cache every stage
/// must see the same (a failure in synthesis is not met again in alignment or verification).
final class RemoteCacheHealth: Sendable {
    private let failed = Mutex(false)

    var isUnavailable: Bool { failed.withLock { $0 } }

    /// Records a failure; true the first time, so it is reported once.
    func markFailed() -> Bool {
        failed.withLock { failed in
            defer { failed = true }
            return !failed
        }
    }
}
