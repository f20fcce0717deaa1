import Foundation
import Synchronization

/// What a stop that ends the process at once (before a command has work to keep, see
/// ``CancellationFlag``) must not leave behind: the temporary files of a phase that starts over
/// rather than resumes, and the children writing them: a recording's decoded tracks and
/// half-written FLAC, an ffmpeg decoding the next track (which would go on writing after forge
/// exited), the recognizer's 16 kHz copy of the recording.
///
/// The command-line front end calls ``runAll()`` right before it exits. Removals run newest
/// first, so a phase's children are stopped before the files they write are removed; a thread
/// that registers after that waits for the exit instead of starting anything.
package enum StopCleanup {
    private struct State {
        var removals: [(key: Int, removal: @Sendable () -> Void)] = []
        var lastKey = 0
        var stopping = false
    }
    private static let state = Mutex(State())

    /// Runs `body`; a stop that ends the process while it runs runs `removal` first. After such
    /// a stop has begun, runs `removal` and never returns (the process is exiting).
    package static func removing<Result>(
        _ removal: @escaping @Sendable () -> Void, whileRunning body: () throws -> Result
    ) rethrows -> Result {
        guard let key = state.withLock({ register(removal, in: &$0) }) else {
            removal()
            waitForTheExit()
        }
        defer { unregister(key) }
        return try body()
    }

    /// Starts what `start` makes (a child process) and runs `body` with it; a stop that ends the
    /// process while it runs runs `removal` on it first. The start and its registration are one
    /// step under the lock the stop takes: a stop either finds the child registered or comes
    /// before it, when nothing is started and the thread waits for the exit (a child started
    /// just before the stop and registered after it would outlive forge, writing its output).
    package static func starting<Started: Sendable, Result>(
        _ start: () throws -> Started, removal: @escaping @Sendable (Started) -> Void,
        whileRunning body: (Started) throws -> Result
    ) throws -> Result {
        let registered = try state.withLock { state throws -> (key: Int, started: Started)? in
            guard !state.stopping else { return nil }
            let started = try start()
            return register({ removal(started) }, in: &state).map { ($0, started) }
        }
        guard let registered else { waitForTheExit() }
        defer { unregister(registered.key) }
        return try body(registered.started)
    }

    /// Registers `removal` unless a stop has begun; its key, to unregister it.
    private static func register(_ removal: @escaping @Sendable () -> Void, in state: inout State) -> Int? {
        guard !state.stopping else { return nil }
        state.lastKey += 1
        state.removals.append((state.lastKey, removal))
        return state.lastKey
    }

    private static func unregister(_ key: Int) {
        state.withLock { $0.removals.removeAll { $0.key == key } }
    }

    /// Runs every removal registered, newest first, once; from then on nothing registers. Only
    /// right before the process exits: the front end's stop.
    package static func runAll() {
        let pending = state.withLock { state in
            state.stopping = true
            defer { state.removals = [] }
            return state.removals
        }
        for (_, removal) in pending.reversed() { removal() }
    }

    private static func waitForTheExit() -> Never {
        while true { sleep(60) }
    }
}
