import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a graceful stop: the first sets a ``CancellationFlag`` (the
/// orchestrator then reports `.cancelling` and winds down); a second exits at once with status 130 (the manifest is transactional, so
/// even that loses only uncommitted items, never consistency).
public final class InterruptMonitor {
    public let flag: CancellationFlag
    private let sources: [any DispatchSourceSignal]

    public init(flag: CancellationFlag = CancellationFlag()) {
        self.flag = flag
        let queue = DispatchQueue(label: "forge.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if flag.isCancelled {
                    exit(130)
                }
                flag.cancel()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        // A worker that dies mid-write must not kill the orchestrator with SIGPIPE. Over a file-size
        // limit a write must fail with EFBIG rather than kill the process; manifest writes run on
        // GRDB's queue thread, which blocks signals, but the ignore keeps that true on any thread.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
