import Dispatch
import Forge
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a stop, for every forge command but the worker.
///
/// Before a command has work worth keeping (see ``CancellationFlag/beginKeepingWork()``) the
/// first signal ends the process at once with status 130: nothing was written, or what was is
/// safe to drop (the store and the manifest survive `kill -9`). After that the first signal sets
/// the flag and the command winds down, saving what is finished; a second exits at once (the
/// manifest is transactional, so even that loses only uncommitted work, never consistency).
final class InterruptMonitor {
    /// The process's one monitor, installed by `ForgeCommand.main` before a command runs.
    nonisolated(unsafe) static var shared: InterruptMonitor?

    let flag: CancellationFlag
    private let sources: [any DispatchSourceSignal]
    private static let note = Mutex<String?>(nil)

    /// What a stop that ends the process at once keeps, printed after "Stopped." (a command
    /// that saves as it goes says where it will resume).
    static var stopNote: String? {
        get { note.withLock { $0 } }
        set { note.withLock { $0 = newValue } }
    }

    init(flag: CancellationFlag = CancellationFlag()) {
        self.flag = flag
        let queue = DispatchQueue(label: "forge.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if flag.isCancelled || !flag.hasWorkToKeep {
                    // The temporary files of a phase that starts over (a join, a recording's copy).
                    StopCleanup.runAll()
                    if !flag.hasWorkToKeep {
                        let kept = Self.stopNote.map { " " + $0 } ?? ""
                        try? FileHandle.standardError.write(contentsOf: Data("Stopped.\(kept)\n".utf8))
                    }
                    exit(ForgeExitCode.cancelled.rawValue)
                }
                flag.cancel()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        // A worker that dies mid-write must not kill the orchestrator with SIGPIPE (nor a closed
        // standard output the whole command). Over a file-size limit a write must fail with EFBIG
        // rather than kill the process.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The flag of the installed monitor (a fresh one, never set, where none is installed: in tests).
    static var flag: CancellationFlag { shared?.flag ?? CancellationFlag() }

    deinit {
        for source in sources { source.cancel() }
    }
}
