import ArgumentParser
import Forge
import Foundation

struct AlignNarrationCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "narration",
        abstract: "Align a narration (a recording of the text) to its text: word timings, a manifest like a build's, and where the two disagree.",
        discussion: """
            forge align narration --audio narration.flac --text book.txt --output dir: aligns a recording of the text (WAV, FLAC, \
            Ogg, MP3; hours long) in windows anchored on confidently heard words, so it does not drift; writes a manifest like a \
            build's (items' audio cut from the recording) and reports where recording and text disagree: text not in the audio \
            and audio without text, with times and words. Exit 1 when more than --max-unmatched of the text was not heard \
            or of the speech is not in the text (the wrong text or recording, a skipped page), or an item was not heard at \
            all. Add --export to write exports too (only when it passes).
            """)

    @Option(help: "The narration: WAV, FLAC, Ogg or MP3.", completion: .file())
    var audio: String

    @Option(help: "The text the narration reads (plain text or Markdown).", completion: .file())
    var text: String

    @Option(name: [.short, .long], help: "The output directory.")
    var output: String

    @Option(name: .long, parsing: .upToNextOption, help: "Also export these formats (as forge export --format).")
    var export: [FormatList] = []

    @Option(help: "The book's title, for exports and the manifest (default: the text file's name).")
    var title: String?

    @Option(help: "The largest share, 0–1, of the text not heard or of the speech not in the text that passes (default: 0.05).")
    var maxUnmatched: Double?

    @Flag(name: .long, help: "Print JSON Lines (an `aligning` line per window, a closing `narration` report) instead of a progress line.")
    var json = false

    @Flag(name: .long, help: "Log phase timings to standard error (FORGE_LOG_LEVEL=debug for more).")
    var verbose = false

    func validate() throws {
        if let maxUnmatched, !(0...1).contains(maxUnmatched) { throw ValidationError("--max-unmatched is a share between 0 and 1 (e.g. 0.05), not \(maxUnmatched).") }
    }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let bookTitle = title ?? URL(fileURLWithPath: text).deletingPathExtension().lastPathComponent
        var exports: ExportSettings?
        if !export.isEmpty {
            exports = NarrationImport.exportSettings(title: bookTitle, formats: export.formats)
        } else if title != nil {
            exports = NarrationImport.exportSettings(title: bookTitle)
        }
        let job = NarrationImport(
            audioFile: URL(fileURLWithPath: audio, relativeTo: cwd), textFile: URL(fileURLWithPath: text, relativeTo: cwd),
            outputDirectory: URL(fileURLWithPath: output, relativeTo: cwd), maxUnmatched: maxUnmatched ?? NarrationImport.defaultMaxUnmatched)
        let interactive = !json && isatty(STDOUT_FILENO) != 0
        let report: NarrationReport
        do {
            report = try job.run(commandLine: CommandLine.arguments.joined(separator: " "), exports: exports) { fraction in
                // Windows are saved as they are done: a stop keeps them, and says so.
                if fraction > 0 {
                    InterruptMonitor.stopNote = fraction < 1
                        ? "The alignment up to \(Int(fraction * 100))% of the recording is kept; run the same command again to resume there."
                        : "The alignment is kept; run the same command again to finish."
                }
                if interactive { try? FileHandle.standardOutput.write(contentsOf: Data(String(format: "\r\u{1B}[2KAligning… %.0f%%", fraction * 100).utf8)) }
                // One line per window saved: what a CI log or a wrapper can follow.
                if json { JSONOutput.writeLine(AligningEventJSON(fraction: fraction)) }
            }
        } catch {
            if interactive { print("") }
            throw CommandFailure(error)
        }
        if interactive { print("\r\u{1B}[2K", terminator: "") }
        if json {
            JSONOutput.writeLine(NarrationReportJSON(report))
        } else {
            for warning in report.warnings { DiagnosticPrinter.print(warning) }
            print("Aligned \(report.words) words in \(report.items) items to \(Format.clock(seconds: Double(report.durationMs) / 1000)) of audio in \(String(format: "%.1f", report.elapsedSeconds)) s\(report.reusedAlignment ? " (alignment reused from the store)" : "") → \(report.outputDirectory)")
            if let resumed = report.resumedFromMs {
                print("Resumed at \(Format.clock(seconds: Double(resumed) / 1000)) of the recording, where an interrupted run stopped.")
            }
            let disagreements = report.spans.filter { $0.kind != .matched }
            if disagreements.isEmpty && report.unheard.isEmpty {
                print("The recording holds the text: every word was heard, and no speech is missing from the text.")
            } else {
                let words = String(format: "%.1f", Double(report.unmatchedWords) * 100 / Double(max(1, report.words)))
                let speech = String(format: "%.1f", Double(report.unmatchedSpeechMs) * 100 / Double(max(1, report.speechMs)))
                print("Not heard: \(report.unmatchedWords) of \(report.words) words (\(words)%); speech not in the text: \(Format.clock(seconds: Double(report.unmatchedSpeechMs) / 1000)) of \(Format.clock(seconds: Double(report.speechMs) / 1000)) (\(speech)%).")
                for span in disagreements.prefix(Self.listedSpans) {
                    let times = "\(Format.clock(seconds: Double(span.startMs) / 1000))–\(Format.clock(seconds: Double(span.endMs) / 1000))"
                    switch span.kind {
                    case .textNotInAudio:
                        let place = span.firstWord.map { "item \($0.item)" } ?? ""
                        print("  \(times)  text not in the recording (\(place)): \"\(span.text ?? "")\"")
                    case .audioWithoutText:
                        print("  \(times)  speech not in the text")
                    case .matched:
                        break
                    }
                }
                if disagreements.count > Self.listedSpans { print("  … and \(disagreements.count - Self.listedSpans) more (--json lists all; the manifest's narration_spans table too)") }
                let lone = report.unheard.count - disagreements.filter { $0.kind == .textNotInAudio }.count
                if disagreements.isEmpty && lone > 0 {
                    print("\(report.unheard.count) word(s) not clearly heard where the text puts them; listen there:")
                    for word in report.unheard.prefix(20) { print("  \(Format.clock(seconds: Double(word.startMs) / 1000))  \(word.word)  (item \(word.itemID))") }
                }
            }
            if report.itemsNotInRecording > 0 {
                print("\(report.itemsNotInRecording) item(s) are not in the recording at all; they have no audio (forge status lists them).")
            }
            if !report.exportedFiles.isEmpty { print("Exported \(report.exportedFiles.count) file(s) to \(report.outputDirectory)/exports.") }
            if !report.passed {
                let share = String(format: "%.1f", report.unmatchedFraction * 100)
                let limit = String(format: "%g", report.maxUnmatched * 100)
                print("FAILED: the recording and the text disagree on \(share)% (--max-unmatched allows \(limit)%)\(report.itemsNotInRecording > 0 ? ", and items were not heard" : "")\(report.exportsSkipped ? "; nothing exported" : ""). Check that this is the right text for this recording.")
            }
        }
        if !report.passed { throw ExitCode(ForgeExitCode.itemsFailed.rawValue) }
    }

    /// How many disagreeing spans the human report lists.
    static let listedSpans = 20
}
