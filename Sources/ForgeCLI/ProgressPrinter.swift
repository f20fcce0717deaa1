import Forge
import Foundation
import Synchronization

/// Prints build progress: a live status line on a terminal, JSON Lines otherwise (or with --json).
final class ProgressPrinter: Sendable {
    let json: Bool
    private struct State {
        var lastDraw = ContinuousClock.now - .seconds(1)
        var lineShown = false
    }
    private let state = Mutex(State())

    init(json: Bool) {
        self.json = json
    }

    func handle(_ event: ProgressEvent) {
        if json {
            emit(Self.line(for: event))
            return
        }
        switch event {
        case .item(let item):
            if item.outcome == .failed {
                clearLine()
                print("failed: \(item.itemID): \(item.error ?? "")")
            }
            draw(item)
        case .cancelling:
            clearLine()
            print("Stopping: finishing the items in hand and saving…")
        case .verified(let chunk):
            clearLine()
            print(String(format: "verified chapter %d, chunk %d: word error rate %.1f%%", chunk.chapter, chunk.index, chunk.wordErrorRate * 100))
        case .warning(let message):
            clearLine()
            try? FileHandle.standardError.write(contentsOf: Data("warning: \(message)\n".utf8))
        default:
            break
        }
    }

    private func draw(_ item: ItemProgress) {
        let now = ContinuousClock.now
        let shouldDraw = state.withLock { state -> Bool in
            guard item.finished == item.toFinish || now - state.lastDraw > .milliseconds(100) else { return false }
            state.lastDraw = now
            state.lineShown = true
            return true
        }
        guard shouldDraw else { return }
        let percent = item.toFinish > 0 ? Double(item.finished) * 100 / Double(item.toFinish) : 100
        var eta = ""
        if item.finished > 0, item.finished < item.toFinish {
            let remaining = item.elapsedSeconds / Double(item.finished) * Double(item.toFinish - item.finished)
            eta = "  ETA \(Format.clock(seconds: remaining))"
        }
        let line = String(
            format: "[%d/%d] %5.1f%%  %@ of audio made%@  %@", item.finished, item.toFinish, percent,
            Format.minutes(ms: item.audioMs), eta, item.itemID)
        try? FileHandle.standardOutput.write(contentsOf: Data("\r\u{1B}[2K\(line)".utf8))
    }

    func clearLine() {
        guard !json else { return }
        let shown = state.withLock { state -> Bool in
            defer { state.lineShown = false }
            return state.lineShown
        }
        if shown { try? FileHandle.standardOutput.write(contentsOf: Data("\r\u{1B}[2K".utf8)) }
    }

    func finish(_ summary: BuildSummary, stages: Set<Stage>, recipePath: String) {
        if json {
            var line = JSONLine()
            line.add("event", "summary")
            line.add("build", Int(summary.buildID))
            line.add("output", summary.outputDirectory)
            line.add("items", summary.itemsTotal)
            line.add("upToDate", summary.upToDate)
            line.add("synthesized", summary.synthesized)
            line.add("reused", summary.reused)
            line.add("aligned", summary.aligned)
            line.add("failed", summary.failed.count)
            line.add("remaining", summary.remaining)
            line.add("cancelled", summary.cancelled)
            line.add("audioMs", summary.audioMs)
            line.add("elapsedSeconds", .double((summary.elapsedSeconds * 1000).rounded() / 1000))
            line.add("exitCode", Int(summary.exitCode))
            line.add("nothingToDo", summary.nothingToDo)
            line.add("exported", summary.exportedFiles.count)
            if let verification = summary.verification {
                line.add("verified", verification.available)
                line.add("verificationPassed", verification.passed)
                line.add("wordErrorRate", .double((verification.wordErrorRate * 10000).rounded() / 10000))
                let failing = verification.failingChunks.map { chunk in
                    let flagged = chunk.flaggedItems.map { JSONText.quoted($0.itemID) }.joined(separator: ",")
                    return "{\"chapter\":\(chunk.chapter),\"chunk\":\(chunk.index),\"wordErrorRate\":\((chunk.wordErrorRate * 10000).rounded() / 10000),\"flaggedItems\":[\(flagged)]}"
                }
                line.add("failingChunks", .raw("[" + failing.joined(separator: ",") + "]"))
                if let reason = verification.unavailableReason { line.add("verificationUnavailable", reason) }
            }
            let failures = summary.failed.map { "{\"id\":\(JSONText.quoted($0.itemID)),\"error\":\(JSONText.quoted($0.error))}" }
            line.add("failures", .raw("[" + failures.joined(separator: ",") + "]"))
            emit(line)
            return
        }
        clearLine()
        let elapsed = String(format: "%.2f s", summary.elapsedSeconds)
        if summary.cancelled {
            print("Cancelled after \(elapsed): \(summary.itemsTotal - summary.remaining) of \(summary.itemsTotal) items done and saved in \(summary.outputDirectory).")
            print("Run `forge \(Self.command(for: stages)) \(recipePath)` again to resume; finished items are not redone.")
            return
        }
        if let verification = summary.verification {
            VerifyPrinter.print(verification, json: false)
        }
        if !summary.exportedFiles.isEmpty {
            print("Exported \(summary.exportedFiles.count) file(s) to \(summary.outputDirectory)/exports.")
        }
        if summary.nothingToDo && stages != [.split] {
            print("Nothing to do: \(summary.itemsTotal) items are up to date in \(summary.outputDirectory) (\(elapsed)).")
            return
        }
        print("\(Self.command(for: stages).capitalized) finished in \(elapsed): \(summary.itemsTotal) items in \(summary.outputDirectory) (build #\(summary.buildID)).")
        if stages != [.split] {
            print("  synthesized \(summary.synthesized), reused from the store \(summary.reused), aligned \(summary.aligned), already up to date \(summary.upToDate), failed \(summary.failed.count)")
            print("  audio: \(Format.clock(seconds: Double(summary.audioMs) / 1000)) in all")
        }
        if !summary.failed.isEmpty {
            print("\(summary.failed.count) item(s) failed:")
            for failure in summary.failed.prefix(10) { print("  \(failure.itemID): \(failure.error)") }
            if summary.failed.count > 10 { print("  … and \(summary.failed.count - 10) more (forge status shows them)") }
            print("Run the same command again to retry only the failed items.")
        }
    }

    static func command(for stages: Set<Stage>) -> String {
        stages.count == 1 ? stages.first!.rawValue : "build"
    }

    static func line(for event: ProgressEvent) -> JSONLine {
        var line = JSONLine()
        switch event {
        case let .started(buildID, outputDirectory):
            line.add("event", "started")
            line.add("build", Int(buildID))
            line.add("output", outputDirectory)
        case let .split(chapters, items, words, changedItems):
            line.add("event", "split")
            line.add("chapters", chapters)
            line.add("items", items)
            line.add("words", words)
            line.add("changedItems", changedItems)
        case let .planned(upToDate, toSynthesize, toReuse, toAlign):
            line.add("event", "planned")
            line.add("upToDate", upToDate)
            line.add("toSynthesize", toSynthesize)
            line.add("toReuse", toReuse)
            line.add("toAlign", toAlign)
        case let .item(item):
            line.add("event", "item")
            line.add("id", item.itemID)
            line.add("ordinal", item.ordinal)
            line.add("outcome", item.outcome.rawValue)
            line.add("finished", item.finished)
            line.add("toFinish", item.toFinish)
            line.add("audioMs", item.audioMs)
            line.add("elapsedSeconds", .double((item.elapsedSeconds * 1000).rounded() / 1000))
            if let error = item.error { line.add("error", error) }
        case let .saved(committedItems):
            line.add("event", "saved")
            line.add("items", committedItems)
        case .cancelling:
            line.add("event", "cancelling")
        case let .phase(name):
            line.add("event", "phase")
            line.add("phase", name)
        case let .warning(message):
            line.add("event", "warning")
            line.add("message", message)
        case let .verified(chunk):
            line.add("event", "verified")
            line.add("chapter", chunk.chapter)
            line.add("chunk", chunk.index)
            line.add("startMs", chunk.startMs)
            line.add("endMs", chunk.endMs)
            line.add("wordErrorRate", .double((chunk.wordErrorRate * 10000).rounded() / 10000))
            let flagged = chunk.flaggedItems.map { JSONText.quoted($0.itemID) }
            line.add("flaggedItems", .raw("[" + flagged.joined(separator: ",") + "]"))
        }
        return line
    }

    /// In JSON mode, the closing `summary` event of a build that could not run or finish: its
    /// exit code and the message (also printed on standard error), so a CI log always ends with one.
    func fail(_ failure: CommandFailure, outputDirectory: String) {
        guard json else { return }
        var line = JSONLine()
        line.add("event", "summary")
        line.add("output", outputDirectory)
        line.add("exitCode", Int(failure.code.rawValue))
        line.add("cancelled", failure.code == .cancelled)
        line.add("error", failure.message)
        emit(line)
    }

    private func emit(_ line: JSONLine) {
        try? FileHandle.standardOutput.write(contentsOf: Data(line.line.utf8))
    }
}
