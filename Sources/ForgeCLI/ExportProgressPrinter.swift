import Forge
import Foundation
import Synchronization

/// Prints an export's progress as lines a person reads, on a terminal and in a pipe or CI log
/// alike: a line when a phase starts and ends and at every 5% or 10 seconds between, with the
/// chapter, the elapsed time and the time left. `forge export` prints them on standard error
/// (standard output keeps the report, and `--json` its one object); a build takes the lines and
/// prints them on standard output with its other progress.
final class ExportProgressPrinter: Sendable {
    private struct State {
        var phase = ""
        var started = ContinuousClock.now
        var lastStep = -1
        var lastLine = ContinuousClock.now
        /// When the last step was reported (or the export began): phases run one after another and
        /// report only finished chapters, so a phase is timed from its predecessor's last step.
        var lastReport = ContinuousClock.now
    }
    private let state = Mutex(State())

    /// The export starts now (a build's exports begin long after the printer was made).
    func begin() {
        state.withLock { $0 = State() }
    }

    /// Prints the step's line, if it deserves one, on standard error.
    func report(_ progress: ExportProgress) {
        guard let line = line(for: progress) else { return }
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The line this step of the export deserves, or nil between the 5% steps.
    func line(for progress: ExportProgress) -> String? {
        state.withLock { state in
            let now = ContinuousClock.now
            if progress.phase != state.phase {
                state = State(phase: progress.phase, started: state.lastReport, lastStep: -1, lastLine: now)
            }
            state.lastReport = now
            // By the phase's audio where it is counted so (a long chapter moves inside), else by chapters.
            let fraction = progress.fraction
            let percent = Int(fraction * 100)
            let step = percent / 5
            let finished = progress.done == progress.total
            guard finished || step > state.lastStep || (now - state.lastLine).seconds >= 10 else { return nil }
            // The end of a phase is printed once, though the last chapter's audio may reach 100% before it ends.
            if finished && state.lastStep == Int.max { return nil }
            state.lastStep = finished ? Int.max : step
            state.lastLine = now
            let elapsed = (now - state.started).seconds
            let left = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
            var text =
                "export: \(progress.phase) chapter \(progress.done) of \(progress.total) (\(percent)%), \(Format.clock(seconds: elapsed)) elapsed"
            if !finished && fraction > 0 { text += ", about \(Format.clock(seconds: left)) left" }
            return text
        }
    }
}
