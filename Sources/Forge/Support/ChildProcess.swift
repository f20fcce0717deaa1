import Foundation
import Subprocess
import Synchronization

#if canImport(SystemPackage)
    import SystemPackage
#endif

/// A program Forge runs beside itself — a synthesis worker, a command engine, ffmpeg — started
/// through swift-subprocess: its standard input is written while it runs, its standard output is
/// handed over line by line, its standard error is passed through or kept for messages.
///
/// The child starts with an empty signal mask and default handlers whatever thread started it, so
/// SIGTERM and SIGINT reach it. Everything about the child runs on the ``ProcessThread``; the
/// `…Waiting` forms are for synchronous callers.
final class ChildProcess: Sendable {
    /// How a child ended.
    struct Termination: Sendable, CustomStringConvertible {
        /// Its exit status, or the signal that ended it (negative), or nil when it never ran.
        var code: Int32?
        var signalled: Bool
        /// Why it could not run or be followed, when it could not.
        var failure: String?

        var succeeded: Bool { code == 0 && !signalled }

        var description: String {
            if let failure { return failure }
            return signalled ? "killed by signal \(code ?? 0)" : "exit status \(code ?? 0)"
        }
    }

    /// What becomes of the child's standard error.
    enum ErrorOutput: Sendable {
        /// Written to Forge's own standard error as it comes.
        case passThrough
        /// Kept (its last lines name what went wrong in messages) and logged at debug level with this label.
        case keep(label: String)
    }

    private struct Live: Sendable {
        var writer: StandardInputWriter
        var execution: Execution<CustomWriteInput, SequenceOutput, SequenceOutput>
    }

    private let live = Mutex<Live?>(nil)
    private let termination = Mutex<Termination?>(nil)
    private let errorText = Mutex<String>("")
    private let errorEnded = Atomic<Bool>(false)
    private let run = Mutex<Task<Termination, Never>?>(nil)

    private init() {}

    /// Starts `executable` with `arguments`. `onLine` receives each line of its standard output
    /// (without the newline) in order; `onExit` is called once, after the last line. With
    /// `ownProcessGroup`, the child is the leader of a process group of its own, so a Ctrl-C at
    /// the terminal (sent to Forge's group) reaches Forge alone, which stops the child itself.
    static func start(
        executable: String, arguments: [String], errorOutput: ErrorOutput, ownProcessGroup: Bool = false,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onExit: @escaping @Sendable (Termination) -> Void = { _ in }
    ) async throws(ChildProcessError) -> ChildProcess {
        let child = ChildProcess()
        let (started, startedContinuation) = AsyncStream.makeStream(of: String?.self)
        let task = Task(executorPreference: ProcessThread.shared) { () -> Termination in
            let ended: Termination
            do {
                var platformOptions = PlatformOptions()
                if ownProcessGroup { platformOptions.processGroupID = 0 }
                let outcome = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), platformOptions: platformOptions,
                    input: .inputWriter, output: .sequence, error: .sequence
                ) { execution in
                    child.live.withLock { $0 = Live(writer: execution.standardInputWriter, execution: execution) }
                    startedContinuation.yield(nil)
                    startedContinuation.finish()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { await Self.readLines(execution.standardOutput, onLine: onLine) }
                        group.addTask { await child.readErrors(execution.standardError, errorOutput) }
                    }
                    child.live.withLock { $0 = nil }
                }
                switch outcome.terminationStatus {
                case .exited(let code): ended = Termination(code: code, signalled: false)
                case .signaled(let signal): ended = Termination(code: signal, signalled: true)
                }
            } catch {
                child.live.withLock { $0 = nil }
                child.errorEnded.store(true, ordering: .releasing)
                ended = Termination(code: nil, signalled: false, failure: ErrorReason.text(error))
                startedContinuation.yield(ended.failure)
                startedContinuation.finish()
            }
            child.termination.withLock { $0 = ended }
            onExit(ended)
            return ended
        }
        child.run.withLock { $0 = task }
        var iterator = started.makeAsyncIterator()
        if case .some(.some(let failure)) = await iterator.next() {
            throw .cannotStart(executable: executable, reason: failure)
        }
        return child
    }

    /// ``start(executable:arguments:errorOutput:onLine:onExit:)`` for synchronous callers.
    static func startWaiting(
        executable: String, arguments: [String], errorOutput: ErrorOutput, ownProcessGroup: Bool = false,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onExit: @escaping @Sendable (Termination) -> Void = { _ in }
    ) throws(ChildProcessError) -> ChildProcess {
        let started = ProcessThread.wait { () -> Result<ChildProcess, ChildProcessError> in
            do throws(ChildProcessError) {
                return .success(
                    try await start(
                        executable: executable, arguments: arguments, errorOutput: errorOutput,
                        ownProcessGroup: ownProcessGroup, onLine: onLine,
                        onExit: onExit))
            } catch {
                return .failure(error)
            }
        }
        return try started.get()
    }

    /// Splits standard output into lines as it arrives.
    private static func readLines(_ output: SubprocessOutputSequence, onLine: @Sendable ([UInt8]) -> Void) async {
        var pending: [UInt8] = []
        do {
            for try await buffer in output {
                buffer.withUnsafeBytes { pending.append(contentsOf: $0) }
                var lineStart = 0
                while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(Array(pending[lineStart..<newline]))
                    lineStart = newline + 1
                }
                pending.removeFirst(lineStart)
            }
        } catch {
            ForgeLog.debug("reading a child's output stopped: \(ErrorReason.text(error))")
        }
        if !pending.isEmpty { onLine(pending) }
    }

    private func readErrors(_ errors: SubprocessOutputSequence, _ mode: ErrorOutput) async {
        do {
            for try await buffer in errors {
                switch mode {
                case .passThrough:
                    buffer.withUnsafeBytes { bytes in
                        var offset = 0
                        while offset < bytes.count {
                            let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                            if written < 0 && errno == EINTR { continue }
                            guard written > 0 else { break }
                            offset += written
                        }
                    }
                case .keep(let label):
                    let text = buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                    for line in text.split(separator: "\n") { ForgeLog.debug("\(label): \(line)") }
                    errorText.withLock {
                        $0 += text
                        if $0.count > 4000 { $0 = String($0.suffix(2000)) }
                    }
                }
            }
        } catch {
            ForgeLog.debug("reading a child's standard error stopped: \(ErrorReason.text(error))")
        }
        errorEnded.store(true, ordering: .releasing)
    }

    /// Writes `bytes` to the child's standard input; false when the child no longer reads it.
    func write(_ bytes: [UInt8]) async -> Bool {
        guard let writer = live.withLock({ $0?.writer }) else { return false }
        do {
            _ = try await writer.write(bytes)
            return true
        } catch {
            return false
        }
    }

    /// ``write(_:)`` for synchronous callers.
    func writeWaiting(_ bytes: [UInt8]) -> Bool {
        ProcessThread.wait { await self.write(bytes) }
    }

    /// Closes the child's standard input: it sees end-of-file.
    func finishInput() async {
        guard let writer = live.withLock({ $0?.writer }) else { return }
        try? await writer.finish()
    }

    /// ``finishInput()`` for synchronous callers.
    func finishInputWaiting() {
        ProcessThread.wait { await self.finishInput() }
    }

    /// Waits for the child to exit.
    func exited() async -> Termination {
        guard let task = run.withLock({ $0 }) else {
            return Termination(code: nil, signalled: false, failure: "it never started")
        }
        return await task.value
    }

    /// ``exited()`` for synchronous callers.
    func exitedWaiting() -> Termination {
        ProcessThread.wait { await self.exited() }
    }

    /// How the child ended, or nil while it runs.
    var hasExited: Termination? { termination.withLock { $0 } }

    /// Sends `signal` to the child if it still runs.
    func send(_ signal: Signal) {
        guard let execution = live.withLock({ $0?.execution }) else { return }
        try? execution.send(signal: signal)
    }

    /// "it said: " and the last lines the child wrote on standard error (kept mode), or nil when it
    /// wrote nothing; waits up to `seconds` for standard error to end: a message read before the
    /// child exited could stop mid-line ("/usr/bin/env: ").
    func errorTail(waitingUpTo seconds: Double = 1) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !errorEnded.load(ordering: .acquiring) && ContinuousClock.now < deadline { usleep(5_000) }
        let text = errorText.withLock { $0 }.trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = text.split(separator: "\n").suffix(3).joined(separator: " | ")
        return lines.isEmpty ? nil : "it said: \(lines)"
    }
}
