import Forge
import Foundation
import Synchronization

/// Prints build progress three ways: a live status line on a terminal; a line every 10% or
/// 30 seconds when writing to a pipe or a file (a CI log); JSON Lines events with `--json`.
final class ProgressPrinter: Sendable {
    enum Mode {
        case terminal
        case log
        case json
    }

    let mode: Mode
    var json: Bool { mode == .json }
    private struct State {
        var lastDraw = ContinuousClock.now - .seconds(1)
        var lineShown = false
        /// Log mode: when the last line was printed and the last tenth of the work it reported.
        var lastLogLine = ContinuousClock.now
        var lastTenth = 0
        var lastVerifiedLine = ContinuousClock.now - .seconds(60)
    }
    private let state = Mutex(State())
    /// The recipe's exports' progress, as `forge export` prints it.
    private let exportLines = ExportProgressPrinter()
    /// Log mode prints a progress line at least this often while items finish.
    static let logInterval: Duration = .seconds(30)

    init(mode: Mode) {
        self.mode = mode
    }

    /// The mode for standard output: JSON when asked, else a live line on a terminal and log lines elsewhere.
    static func mode(json: Bool) -> Mode {
        json ? .json : (isatty(STDOUT_FILENO) != 0 ? .terminal : .log)
    }

    func handle(_ event: ProgressEvent) {
        if json {
            if case .item(let item) = event, let line = BuildEventJSON.itemLine(item) {
                try? FileHandle.standardOutput.write(contentsOf: line)
            } else {
                JSONOutput.writeLine(BuildEventJSON(event))
            }
            return
        }
        switch event {
        case .item(let item):
            if item.outcome == .failed {
                clearLine()
                print("failed: \(item.itemID): \(item.error ?? "")")
            }
            if mode == .terminal { draw(item) } else { log(item) }
        case .phase("export"):
            exportLines.begin()
        case .exporting(let progress):
            if let line = exportLines.line(for: progress) {
                clearLine()
                print(line)
            }
        case .cancelling:
            clearLine()
            print("Stopping: finishing the items in hand and saving…")
        case .verified(let chunk):
            clearLine()
            // A log gets a verification line every 30 seconds (and every flagged chunk), not one per 2-minute chunk.
            let now = ContinuousClock.now
            let due =
                mode == .terminal || !chunk.flaggedItems.isEmpty
                || state.withLock { state in
                    guard now - state.lastVerifiedLine >= Self.logInterval else { return false }
                    state.lastVerifiedLine = now
                    return true
                }
            if due {
                print(
                    String(
                        format: "verified chapter %d, chunk %d: word error rate %.1f%%", chunk.chapter, chunk.index,
                        chunk.wordErrorRate * 100))
            }
        case .split(let chapters, let items, let words, _) where mode == .log:
            print("split: \(chapters) chapter(s), \(items) items, \(words) words")
        case .planned(let upToDate, let toSynthesize, let toReuse, let toAlign)
        where mode == .log && toSynthesize + toReuse + toAlign > 0:
            print("to do: synthesize \(toSynthesize), reuse \(toReuse), align \(toAlign) (\(upToDate) up to date)")
        case .diagnostic(let diagnostic):
            clearLine()
            DiagnosticPrinter.print(diagnostic)
        case .remoteCache(let looked, let found, let bytes):
            clearLine()
            print(
                "remote cache: \(found) of \(looked) items found (\(Format.bytes(bytes)) downloaded, every digest checked)"
            )
        case .fetchedAudio(let items, let bytes, let phase):
            clearLine()
            print("remote cache: fetched the audio of \(items) items (\(Format.bytes(bytes))) that the \(phase) needs")
        case .uploaded(let items, let bytes) where mode == .log:
            print("remote cache: \(items) items uploaded (\(Format.bytes(bytes)))")
        default:
            break
        }
        // A log is read while the build runs: each line goes out as it is printed.
        if mode == .log { Self.flushStandardOutput() }
    }

    /// Log mode: one line per tenth of the work, or every ``logInterval``, and at the end.
    private func log(_ item: ItemProgress) {
        let now = ContinuousClock.now
        let tenth = item.toFinish > 0 ? item.finished * 10 / item.toFinish : 10
        let due = state.withLock { state -> Bool in
            guard
                item.finished == item.toFinish || tenth > state.lastTenth || now - state.lastLogLine >= Self.logInterval
            else { return false }
            state.lastTenth = tenth
            state.lastLogLine = now
            return true
        }
        guard due else { return }
        print(Self.progressText(item))
    }

    static func progressText(_ item: ItemProgress) -> String {
        let percent = item.toFinish > 0 ? Double(item.finished) * 100 / Double(item.toFinish) : 100
        var eta = ""
        if item.finished > 0, item.finished < item.toFinish {
            let remaining = item.elapsedSeconds / Double(item.finished) * Double(item.toFinish - item.finished)
            eta = "  ETA \(Format.clock(seconds: remaining))"
        }
        return String(
            format: "[%d/%d] %5.1f%%  %@ of audio made%@", item.finished, item.toFinish, percent,
            Format.minutes(ms: item.audioMs), eta)
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
        let line = Self.progressText(item) + "  " + item.itemID
        try? FileHandle.standardOutput.write(contentsOf: Data("\r\u{1B}[2K\(line)".utf8))
    }

    func clearLine() {
        guard mode == .terminal else { return }
        let shown = state.withLock { state -> Bool in
            defer { state.lineShown = false }
            return state.lineShown
        }
        if shown { try? FileHandle.standardOutput.write(contentsOf: Data("\r\u{1B}[2K".utf8)) }
    }

    func finish(_ summary: BuildSummary, stages: Set<Stage>, recipePath: String) {
        if json {
            JSONOutput.writeLine(BuildSummaryJSON(summary))
            return
        }
        clearLine()
        let elapsed = String(format: "%.2f s", summary.elapsedSeconds)
        if summary.cancelled {
            print(
                "Cancelled after \(elapsed): \(summary.itemsTotal - summary.remaining) of \(summary.itemsTotal) items done and saved in \(summary.outputDirectory)."
            )
            print(
                "Run `forge \(Self.command(for: stages)) \(recipePath)` again to resume; finished items are not redone."
            )
            return
        }
        if let verification = summary.verification {
            VerifyPrinter.print(verification, json: false)
        }
        if let check = summary.reproducibility {
            print(
                check.differing.isEmpty
                    ? "Reproducible: \(check.checked) item(s) made again came out the same bytes."
                    : "Not reproducible: \(check.differing.count) of \(check.checked) item(s) made again came out other bytes (listed above)."
            )
        }
        if !summary.exportedFiles.isEmpty {
            let taken =
                summary.downloadedEncodings + summary.downloadedACXFiles > 0
                ? " (from the remote cache: \(summary.downloadedEncodings) encoding(s), \(summary.downloadedACXFiles) ACX file(s); \(summary.encodedChapters) encoding(s) made here)"
                : ""
            print("Exported \(summary.exportedFiles.count) file(s) to \(summary.outputDirectory)/exports\(taken).")
        }
        if summary.nothingToDo && stages != [.split] {
            print(
                "Nothing to do: \(summary.itemsTotal) items are up to date in \(summary.outputDirectory) (\(elapsed)).")
            return
        }
        print(
            "\(Self.command(for: stages).capitalized) finished in \(elapsed): \(summary.itemsTotal) items in \(summary.outputDirectory) (build #\(summary.buildID))."
        )
        if stages != [.split] {
            print(
                "  synthesized \(summary.synthesized),\(summary.remoteCache.map { " downloaded \($0.downloaded)," } ?? "") reused from the store \(summary.reused), aligned \(summary.aligned), already up to date \(summary.upToDate), failed \(summary.failed.count)"
            )
            print("  audio: \(Format.clock(seconds: Double(summary.audioMs) / 1000)) in all")
        }
        if let cache = summary.remoteCache {
            print(
                "  remote cache \(cache.cache): downloaded \(cache.downloaded) (\(Format.bytes(cache.downloadedBytes))), uploaded \(cache.uploaded) (\(Format.bytes(cache.uploadedBytes)))\(cache.downloadedChunks + cache.uploadedChunks > 0 ? "; verification chunks downloaded \(cache.downloadedChunks), uploaded \(cache.uploadedChunks)" : "")\(cache.downloadedAlignments + cache.uploadedAlignments > 0 ? "; forced alignments downloaded \(cache.downloadedAlignments), uploaded \(cache.uploadedAlignments)" : "")\(cache.leftInCache > 0 ? "; audio of \(cache.leftInCache) items left in the cache (\(Format.bytes(cache.leftInCacheBytes)))" : "")\(cache.fetchedAudio > 0 ? "; audio fetched for later stages \(cache.fetchedAudio) (\(Format.bytes(cache.fetchedAudioBytes)))" : "")\(cache.available ? "" : "; unavailable during the build (see the warning)")"
            )
        }
        for service in summary.services {
            print(
                "  service \(service.engine): \(service.requests) request(s), \(service.characters) characters sent, \(service.retries) retried, \(service.failedItems) item(s) without audio"
            )
        }
        if let shard = summary.shard {
            print(
                "  shard \(shard): \(summary.leftToOtherShards) items left to the other shards; its chapters finished: \(summary.shardTranscribedChunks) verification chunk(s) transcribed, \(summary.encodedChapters) encoding(s) made (\(summary.downloadedEncodings) taken from the cache, \(summary.uploadedEncodings) sent to it), \(summary.masteredACXFiles) ACX file(s) mastered (\(summary.uploadedACXFiles) sent)"
            )
            print("  run `forge build \(recipePath)` with the same cache on any machine to assemble the book.")
        }
        if !summary.failed.isEmpty {
            print("\(summary.failed.count) item(s) failed:")
            for failure in summary.failed.prefix(10) { print("  \(failure.itemID): \(failure.error)") }
            if summary.failed.count > 10 {
                print("  … and \(summary.failed.count - 10) more (forge status shows them)")
            }
            print("Run the same command again to retry only the failed items.")
        }
        // Said when the build began, and again here where a long build's reader looks.
        for warning in summary.warnings { print("warning: \(warning.text)") }
    }

    static func command(for stages: Set<Stage>) -> String {
        stages.count == 1 ? stages.first!.rawValue : "build"
    }

    /// In JSON mode, the closing `summary` event of a build that could not run or finish: its
    /// exit code and the message (also printed on standard error), so a CI log always ends with one.
    func fail(_ failure: CommandFailure, outputDirectory: String) {
        guard json else { return }
        JSONOutput.writeLine(BuildSummaryJSON(failure, outputDirectory: outputDirectory))
    }

    /// Sends what `print` buffered (standard output is block-buffered on a pipe).
    static func flushStandardOutput() {
        fflush(nil)
    }
}
