import Synchronization

/// Set when the user asks a build to stop (Ctrl-C, SIGTERM); the orchestrator then stops
/// dispatching, lets items in hand finish, commits them and returns.
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    public init() {}

    public var isCancelled: Bool { state.load(ordering: .acquiring) }

    public func cancel() { state.store(true, ordering: .releasing) }
}
