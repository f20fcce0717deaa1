import Forge
import Foundation
import Synchronization

/// Prints an export's progress to standard error (standard output keeps the report, and `--json`
/// its one object): a line when a phase starts and ends and at every 5% or 10 seconds between,
/// with the chapter, the rate and the time left, so a pipe or a CI log sees it as a terminal does.
final class ExportProgressPrinter: Sendable {
    private struct State {
        var phase = ""
        var started = ContinuousClock.now
        var lastStep = -1
        var lastLine = ContinuousClock.now
    }
    private let state = Mutex(State())

    func report(_ progress: ExportProgress) {
        let line: String? = state.withLock { state in
            let now = ContinuousClock.now
            if progress.phase != state.phase {
                state = State(phase: progress.phase, started: now, lastStep: -1, lastLine: now)
            }
            let percent = progress.total > 0 ? progress.done * 100 / progress.total : 100
            let step = percent / 5
            guard progress.done == progress.total || step > state.lastStep || (now - state.lastLine).seconds >= 10 else { return nil }
            state.lastStep = step
            state.lastLine = now
            let elapsed = (now - state.started).seconds
            let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
            let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
            var text = "export: \(progress.phase) chapter \(progress.done) of \(progress.total) (\(percent)%), \(Format.clock(seconds: elapsed)) elapsed"
            if progress.done < progress.total && progress.done > 0 { text += ", about \(Format.clock(seconds: left)) left" }
            return text
        }
        if let line { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
