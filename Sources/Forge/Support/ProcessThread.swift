import Foundation
import Synchronization

/// The thread that drives Forge's child processes (``ChildProcess``): a task executor of its own,
/// so a synchronous caller can block on child-process work (``wait(_:)``) without waiting for the
/// cooperative pool, which that caller may itself be occupying (an export encodes through ffmpeg
/// from inside an async stage; a worker speaks through a command engine from its main thread).
final class ProcessThread: TaskExecutor, @unchecked Sendable {
    // `jobs` is only touched under `condition`'s lock; the thread runs what it takes out.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private let threadIdentifier = Atomic<UInt>(0)

    /// The one process thread, started on first use.
    static let shared = ProcessThread()

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "forge.processes"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        threadIdentifier.store(UInt(bitPattern: Int(pthread_self())), ordering: .releasing)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// Runs `operation` on the process thread and blocks the calling thread until it returns.
    /// For synchronous code only; never called from the process thread itself (it would wait for itself).
    static func wait<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) -> Value {
        precondition(
            shared.threadIdentifier.load(ordering: .acquiring) != UInt(bitPattern: Int(pthread_self())),
            "ProcessThread.wait called on the process thread")
        let result = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: shared) {
            let value = await operation()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0.take()! }
    }
}
