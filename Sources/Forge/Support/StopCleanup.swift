import Synchronization

/// What a stop that ends the process at once (before a command has work to keep, see
/// ``CancellationFlag``) must not leave behind: the temporary files of a phase that starts over
/// rather than resumes. A recording's join left its decoded tracks and half-written FLAC (290 MB
/// nine tracks into a 255-track audiobook), and reading it for the recognizer a 16 kHz copy of up
/// to 7.3 GB under a name no later run removed. The command-line front end runs the removals
/// registered here right before it exits; a phase that ends any other way removes its own.
package enum StopCleanup {
    private static let removals = Mutex<[Int: @Sendable () -> Void]>([:])
    private static let lastKey = Atomic<Int>(0)

    /// Runs `body`; a stop that ends the process while it runs runs `removal` first.
    package static func removing<Result>(
        _ removal: @escaping @Sendable () -> Void, whileRunning body: () throws -> Result
    ) rethrows -> Result {
        let key = lastKey.add(1, ordering: .relaxed).newValue
        removals.withLock { $0[key] = removal }
        defer { removals.withLock { _ = $0.removeValue(forKey: key) } }
        return try body()
    }

    /// Runs every removal registered now, once (the front end, right before a stop ends the process).
    package static func runAll() {
        let pending = removals.withLock { removals in
            defer { removals = [:] }
            return Array(removals.values)
        }
        for removal in pending { removal() }
    }
}
