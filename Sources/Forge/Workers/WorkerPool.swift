import Foundation
import Synchronization

/// Synthesis worker processes (`forge worker`) and the stream of their answers.
///
/// espeak-ng's state is process-global, so parallel synthesis needs processes. Each worker's
/// output lines become ``Message``s as they arrive; a worker that dies is reported with the
/// items it held, so the orchestrator can fail the culprit and carry on.
package final class WorkerPool: Sendable {
    package enum Message: Sendable {
        case started(worker: Int, itemID: String)
        case result(worker: Int, SpeechJobResult)
        case exited(worker: Int, detail: String)
    }

    /// How to start a worker: the forge executable and its arguments.
    package struct Launch: Sendable {
        package var executable: URL
        package var arguments: [String]

        package init(executable: URL, arguments: [String]) {
            self.executable = executable
            self.arguments = arguments
        }

        /// The same launch with its workers' store at `path` (`--store`).
        package func storing(at path: String) -> Launch {
            var arguments = arguments
            if let index = arguments.firstIndex(of: "--store"), index + 1 < arguments.count {
                arguments[index + 1] = path
            } else {
                arguments += ["--store", path]
            }
            return Launch(executable: executable, arguments: arguments)
        }
    }

    package let messages: AsyncStream<Message>
    private let continuation: AsyncStream<Message>.Continuation
    private let launch: Launch
    private let workers = Mutex<[Int: ChildProcess]>([:])

    package init(launch: Launch) {
        self.launch = launch
        (messages, continuation) = AsyncStream.makeStream(of: Message.self)
    }

    /// Starts worker number `index` (replacing a dead one with the same number).
    package func start(_ index: Int) async throws(SpeechError) {
        let continuation = self.continuation
        let worker: ChildProcess
        do {
            worker = try await ChildProcess.start(
                executable: launch.executable.path, arguments: launch.arguments, errorOutput: .passThrough,
                onLine: { line in
                    if let message = Self.message(from: line, worker: index) { continuation.yield(message) }
                },
                onExit: { ended in continuation.yield(.exited(worker: index, detail: ended.description)) })
        } catch {
            throw .workerUnavailable(ErrorReason.message(error))
        }
        workers.withLock { $0[index] = worker }
    }

    /// A worker's output line as a message: a notice of the item it starts, or a result.
    private static func message(from line: [UInt8], worker: Int) -> Message? {
        if line.starts(with: SpeechWorkerNotice.prefix) {
            return SpeechWorkerNotice.decode(line: line).map { .started(worker: worker, itemID: $0.started) }
        }
        return SpeechJobResult.decode(line: line).map { .result(worker: worker, $0) }
    }

    /// Sends a job; false when the worker is gone (its exit is reported as a message).
    @discardableResult
    package func send(_ job: SpeechJob, to index: Int) async -> Bool {
        guard let worker = workers.withLock({ $0[index] }), let line = job.line else { return false }
        return await worker.write(Array(line))
    }

    /// Closes a worker's input so it exits after the items it holds.
    package func finish(_ index: Int) async {
        guard let worker = workers.withLock({ $0.removeValue(forKey: index) }) else { return }
        await worker.finishInput()
    }

    /// Closes every worker's input and waits for them to exit.
    package func shutdown() async {
        let all = workers.withLock { workers in
            defer { workers.removeAll() }
            return Array(workers.values)
        }
        for worker in all { await worker.finishInput() }
        for worker in all { _ = await worker.exited() }
        continuation.finish()
    }
}
