import Foundation
import Synchronization

/// Where Forge runs work that blocks — pocketsphinx decodes, libsndfile, libzip and ffmpeg writes,
/// whole export and verification passes: threads of its own with stacks big enough for C code,
/// never the cooperative pool, which async code (the build's orchestrator, the I/O of child
/// processes, remote-cache transfers) needs free to make progress.
enum BlockingThreads {
    /// C libraries (pocketsphinx in particular) use more stack than Foundation's default thread gives.
    static let stackSize = 8 << 20

    /// Runs `work` on a thread of its own; the calling task waits without holding a thread.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start(1, body: { _ in continuation.resume(with: Result { try work() }) })
        }
    }

    /// Runs `body(index)` for index 0..<count on `count` threads at once and returns when every one
    /// has returned. For synchronous callers (a pool of decoders, each with its own state).
    static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let finished = DispatchSemaphore(value: 0)
        start(count, body: body, whenAllFinished: { finished.signal() })
        finished.wait()
    }

    /// Runs `body(index)` for every index in 0..<count on up to `threads` threads, each taking the
    /// next index in order; no new index is taken once `cancellation` is set or a body has thrown.
    /// Returns when all are done, rethrowing the first error.
    static func forEachIndex(
        _ count: Int, threads: Int, cancellation: CancellationFlag?, _ body: @escaping @Sendable (Int) throws -> Void
    ) throws {
        try forEachIndex(
            count, threads: threads, cancellation: cancellation, state: {}, { index, _ in try body(index) })
    }

    /// ``forEachIndex(_:threads:cancellation:_:)`` where each thread first makes a `state` of its
    /// own (a decoder, which holds state and must stay on one thread) that its bodies share; a
    /// state that cannot be made stops the run like a body that throws.
    static func forEachIndex<State>(
        _ count: Int, threads: Int, cancellation: CancellationFlag?,
        state makeState: @escaping @Sendable () throws -> State,
        _ body: @escaping @Sendable (Int, State) throws -> Void
    ) throws {
        let next = Mutex(0)
        let failure = Mutex<(any Error)?>(nil)
        forEach(count == 0 ? 0 : max(1, min(threads, count))) { _ in
            do {
                let state = try makeState()
                while cancellation?.isCancelled != true, failure.withLock({ $0 == nil }) {
                    let index = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard index < count else { return }
                    try body(index, state)
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Starts `count` threads running `body(index)` and returns at once; `whenAllFinished` runs
    /// on the last thread to finish.
    static func start(
        _ count: Int, body: @escaping @Sendable (Int) -> Void, whenAllFinished: @escaping @Sendable () -> Void = {}
    ) {
        let running = Atomic<Int>(count)
        for index in 0..<count {
            let thread = Thread {
                body(index)
                if running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { whenAllFinished() }
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
