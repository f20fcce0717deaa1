import Foundation
import Synchronization

/// Synthesis worker processes (`forge worker`) and the stream of their answers.
///
/// espeak-ng's state is process-global, so parallel synthesis needs processes. Each worker has
/// a reader thread that turns its output lines into ``Message``s; a worker that dies is
/// reported with the items it held, so the orchestrator can fail the culprit and carry on.
public final class WorkerPool: Sendable {
    public enum Message: Sendable {
        case started(worker: Int, itemID: String)
        case result(worker: Int, SpeechJobResult)
        case exited(worker: Int, detail: String)
    }

    /// How to start a worker: the forge executable and its arguments.
    public struct Launch: Sendable {
        public var executable: URL
        public var arguments: [String]

        public init(executable: URL, arguments: [String]) {
            self.executable = executable
            self.arguments = arguments
        }
    }

    private struct Worker: Sendable {
        let process: Process
        let input: FileHandle
    }

    public let messages: AsyncStream<Message>
    private let continuation: AsyncStream<Message>.Continuation
    private let launch: Launch
    private let workers = Mutex<[Int: Worker]>([:])

    public init(launch: Launch) {
        self.launch = launch
        (messages, continuation) = AsyncStream.makeStream(of: Message.self)
    }

    /// Starts worker number `index` (replacing a dead one with the same number).
    public func start(_ index: Int) throws(SpeechError) {
        let process = Process()
        process.executableURL = launch.executable
        process.arguments = launch.arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw .workerUnavailable("\(launch.executable.path): \(error.localizedDescription)")
        }
        // Our copies of the child's ends must close, or EOF never arrives.
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        workers.withLock { $0[index] = Worker(process: process, input: input.fileHandleForWriting) }
        let reader = output.fileHandleForReading
        let continuation = self.continuation
        let thread = Thread {
            var buffer = Data()
            let decoder = JSONDecoder()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer = Data(buffer[(newline + 1)...])
                    if line.starts(with: SpeechWorkerNotice.prefix) {
                        if let notice = try? decoder.decode(SpeechWorkerNotice.self, from: line) {
                            continuation.yield(.started(worker: index, itemID: notice.started))
                        }
                    } else if let result = try? decoder.decode(SpeechJobResult.self, from: line) {
                        continuation.yield(.result(worker: index, result))
                    }
                }
            }
            try? reader.close()
            process.waitUntilExit()
            let detail = process.terminationReason == .uncaughtSignal
                ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
            continuation.yield(.exited(worker: index, detail: detail))
        }
        thread.start()
    }

    /// Sends a job; false when the worker is gone (its exit is reported as a message).
    @discardableResult
    public func send(_ job: SpeechJob, to index: Int) -> Bool {
        guard let worker = workers.withLock({ $0[index] }), var data = try? JSONEncoder().encode(job) else { return false }
        data.append(UInt8(ascii: "\n"))
        do {
            try worker.input.write(contentsOf: data)
            return true
        } catch {
            return false
        }
    }

    /// Closes a worker's input so it exits after the items it holds.
    public func finish(_ index: Int) {
        guard let worker = workers.withLock({ $0.removeValue(forKey: index) }) else { return }
        try? worker.input.close()
    }

    /// Closes every worker's input and waits for them to exit.
    public func shutdown() {
        let all = workers.withLock { workers in
            defer { workers.removeAll() }
            return Array(workers.values)
        }
        for worker in all { try? worker.input.close() }
        for worker in all { worker.process.waitUntilExit() }
        continuation.finish()
    }
}
