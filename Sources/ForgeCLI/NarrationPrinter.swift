import Forge
import Foundation

/// Runs a narration's alignment with a progress line (or JSON Lines) and prints its report: what
/// `forge align narration` and `forge sync` share.
enum NarrationPrinter {
    /// How many disagreeing spans the human report lists.
    static let listedSpans = 20

    /// Runs `job`, showing its progress; a failure becomes the command's.
    static func run(_ job: NarrationImport, exports: ExportSettings?, json: Bool) throws -> NarrationReport {
        let interactive = !json && isatty(STDOUT_FILENO) != 0
        do {
            let report = try job.run(commandLine: CommandLine.arguments.joined(separator: " "), exports: exports) {
                event in
                let line: String
                switch event {
                case .joining(let joined, let files):
                    line = "Joining the recording's \(files) files… \(joined) of \(files)"
                    if json { JSONOutput.writeLine(JoiningEventJSON(joined: joined, files: files)) }
                case .reading(let fraction):
                    line = String(format: "Reading the recording… %.0f%%", fraction * 100)
                    if json { JSONOutput.writeLine(ReadingEventJSON(fraction: fraction)) }
                case .aligning(let fraction):
                    // Windows are saved as they are done: a stop keeps them, and says so.
                    if fraction > NarrationAligner.locatingShare {
                        InterruptMonitor.stopNote =
                            fraction < 1
                            ? "The alignment up to \(Int(fraction * 100))% of the recording is kept; run the same command again to resume there."
                            : "The alignment is kept; run the same command again to finish."
                    }
                    line = String(format: "Aligning… %.0f%%", fraction * 100)
                    // One line per window saved: what a CI log or a wrapper can follow.
                    if json { JSONOutput.writeLine(AligningEventJSON(fraction: fraction)) }
                case .cutting(let fraction):
                    line = String(format: "Cutting the recording into the items' pieces… %.0f%%", fraction * 100)
                    if json { JSONOutput.writeLine(CuttingEventJSON(fraction: fraction)) }
                case .exporting(let step):
                    line =
                        "Exporting: \(step.phase) chapter \(step.done) of \(step.total) (\(Int(step.fraction * 100))%)"
                    // The build's and `forge export --progress json`'s own event.
                    if json { JSONOutput.writeLine(BuildEventJSON(.exporting(step))) }
                }
                if interactive { try? FileHandle.standardOutput.write(contentsOf: Data("\r\u{1B}[2K\(line)".utf8)) }
            }
            if interactive { Swift.print("\r\u{1B}[2K", terminator: "") }
            return report
        } catch {
            if interactive { Swift.print("") }
            throw CommandFailure(error)
        }
    }

    /// The report: JSON, or where recording and text disagree for a person.
    static func print(_ report: NarrationReport, json: Bool) {
        if json {
            JSONOutput.writeLine(NarrationReportJSON(report))
            return
        }
        for warning in report.warnings { DiagnosticPrinter.print(warning) }
        Swift.print(
            "Aligned \(report.words) words in \(report.items) items to \(Format.clock(seconds: Double(report.durationMs) / 1000)) of audio in \(String(format: "%.1f", report.elapsedSeconds)) s\(report.reusedAlignment ? " (alignment reused from the store)" : "") → \(report.outputDirectory)"
        )
        if let resumed = report.resumedFromMs {
            Swift.print(
                "Resumed at \(Format.clock(seconds: Double(resumed) / 1000)) of the recording, where an interrupted run stopped."
            )
        }
        if let examined = report.examinedMs, report.durationMs > 0 {
            Swift.print(
                "The acoustic model examined \(Format.clock(seconds: Double(examined) / 1000)) of the recording (\(String(format: "%.1f", 100 * Double(examined) / Double(report.durationMs)))%); Forge's own reading placed the rest."
            )
        }
        printDisagreements(report)
        if report.itemsNotInRecording > 0 {
            Swift.print(
                "\(report.itemsNotInRecording) item(s) are not in the recording at all; they have no audio (forge status lists them)."
            )
        }
        if !report.exportedFiles.isEmpty {
            Swift.print("Exported \(report.exportedFiles.count) file(s) to \(report.outputDirectory)/exports:")
            for file in report.exportedFiles.prefix(10) { Swift.print("  \(report.outputDirectory)/\(file)") }
        }
        if !report.passed {
            let share = String(format: "%.1f", report.unmatchedFraction * 100)
            let limit = String(format: "%g", report.maxUnmatched * 100)
            Swift.print(
                "FAILED: the recording and the text disagree on \(share)% (--max-unmatched allows \(limit)%)\(report.itemsNotInRecording > 0 ? ", and items were not heard" : "")\(report.exportsSkipped ? "; nothing exported" : ""). Check that this is the right text for this recording."
            )
        }
    }

    private static func printDisagreements(_ report: NarrationReport) {
        let disagreements = report.spans.filter { $0.kind != .matched }
        if disagreements.isEmpty && report.unheard.isEmpty {
            Swift.print("The recording holds the text: every word was heard, and no speech is missing from the text.")
            return
        }
        let words = String(format: "%.1f", Double(report.unmatchedWords) * 100 / Double(max(1, report.words)))
        let speech = String(format: "%.1f", Double(report.unmatchedSpeechMs) * 100 / Double(max(1, report.speechMs)))
        Swift.print(
            "Not heard: \(report.unmatchedWords) of \(report.words) words (\(words)%); speech not in the text: \(Format.clock(seconds: Double(report.unmatchedSpeechMs) / 1000)) of \(Format.clock(seconds: Double(report.speechMs) / 1000)) (\(speech)%)."
        )
        for span in disagreements.prefix(listedSpans) {
            let times =
                "\(Format.clock(seconds: Double(span.startMs) / 1000))–\(Format.clock(seconds: Double(span.endMs) / 1000))"
            switch span.kind {
            case .textNotInAudio:
                let place = span.firstWord.map { "item \($0.item)" } ?? ""
                Swift.print("  \(times)  text not in the recording (\(place)): \"\(span.text ?? "")\"")
            case .audioWithoutText:
                Swift.print("  \(times)  speech not in the text")
            case .matched:
                break
            }
        }
        if disagreements.count > listedSpans {
            Swift.print(
                "  … and \(disagreements.count - listedSpans) more (--json lists all; the manifest's narration_spans table too)"
            )
        }
        let lone = report.unheard.count - disagreements.filter { $0.kind == .textNotInAudio }.count
        if disagreements.isEmpty && lone > 0 {
            Swift.print("\(report.unheard.count) word(s) not clearly heard where the text puts them; listen there:")
            for word in report.unheard.prefix(20) {
                Swift.print(
                    "  \(Format.clock(seconds: Double(word.startMs) / 1000))  \(word.word)  (item \(word.itemID))")
            }
        }
    }
}
