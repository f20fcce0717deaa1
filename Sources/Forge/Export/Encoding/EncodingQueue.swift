import Dispatch
import Foundation
import Synchronization

/// Encodes numbered files (a book's chapter audio) on up to `jobs` ``BlockingThreads`` while the
/// caller takes them in order: a 54-hour book's chapters are encoded by every core instead of one, and memory
/// and scratch space hold at most `ahead` files whatever the book's length.
enum EncodingQueue {
    /// Runs `encode(index, descriptor, stop)` for every index in `0..<count` on up to `jobs`
    /// threads, each into the new file `scratch(index)` (opened without following links; `encode`
    /// closes it), and `take(index)` on the calling thread in index order as each is done. At
    /// most `ahead` files are encoding or waiting to be taken. `stop` is set when the user asks to
    /// stop (`cancellation`) or another file failed: `encode` checks it between its blocks. The
    /// first failure is thrown; every scratch file is gone on return, and no thread still runs.
    static func run(
        count: Int, jobs: Int, ahead: Int, cancellation: CancellationFlag?, scratch: @escaping @Sendable (Int) -> URL,
        encode: @escaping @Sendable (_ index: Int, _ descriptor: Int32, _ stop: CancellationFlag) throws -> Void,
        take: (Int) throws -> Void
    ) throws {
        guard count > 0 else { return }
        let workers = max(1, min(jobs, count))
        let stop = CancellationFlag()
        let finished = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let slots = DispatchSemaphore(value: max(workers, ahead))
        let state = Mutex<(next: Int, failures: [Int: any Error], firstFailure: (any Error)?)>((0, [:], nil))
        let allFinished = DispatchSemaphore(value: 0)
        BlockingThreads.start(
            workers,
            body: { _ in
                while true {
                    slots.wait()
                    let index: Int? = state.withLock { state in
                        guard !stop.isCancelled, state.next < count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let index else {
                        slots.signal()
                        return
                    }
                    do {
                        let url = scratch(index)
                        unlink(url.path)
                        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                        guard descriptor >= 0 else {
                            throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
                        }
                        try encode(index, descriptor, stop)
                    } catch {
                        state.withLock { state in
                            state.failures[index] = error
                            // A file stopped because another failed reports that failure, not the stop.
                            if !stop.isCancelled, state.firstFailure == nil { state.firstFailure = error }
                        }
                        stop.cancel()
                    }
                    finished[index].signal()
                }
            }, whenAllFinished: { allFinished.signal() })
        defer {
            stop.cancel()
            for _ in 0..<workers { slots.signal() }
            allFinished.wait()
            for index in 0..<count { unlink(scratch(index).path) }
        }
        for index in 0..<count {
            // A stop asked while a long file encodes reaches its encoder within a poll.
            while finished[index].wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if cancellation?.isCancelled == true { stop.cancel() }
                // Once stopped, no thread starts a file: one not started yet never will be.
                if stop.isCancelled, state.withLock({ $0.next <= index }) { break }
            }
            let failure: (any Error)? = state.withLock { state in
                if let failure = state.failures[index] { return state.firstFailure ?? failure }
                return state.next <= index ? state.firstFailure ?? ExportError.cancelled(written: 0) : nil
            }
            if let failure { throw cancellation?.isCancelled == true ? ExportError.cancelled(written: 0) : failure }
            try take(index)
            unlink(scratch(index).path)
            slots.signal()
        }
    }
}
