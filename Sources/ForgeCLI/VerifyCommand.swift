import ArgumentParser
import Forge
import Foundation

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Transcribe a build's audio back in 2-minute chunks and score it against the text.",
        discussion: """
            Each chapter's timeline (items plus the export pauses) is cut into chunks at multiples of 2 minutes; each \
            is transcribed by pocketsphinx with a language model built from the book, and gets a word error rate against \
            the words the alignment places there. Items with a run of unheard words are flagged. Only chunks whose audio \
            changed since the last run are transcribed again. Every item's audio is also screened (silence, clipping, \
            noise, level jumps, length against its text, another voice, reversed sound, a file changed since the build). \
            --quick transcribes only a fixed sample of one chunk in 16 and every chunk holding a screened item: a verdict \
            in about the time synthesis takes. Exit 0 when every chunk is within --max-wer and no item is flagged (or no \
            limit is given), 1 otherwise, 3 when the build is incomplete or verification cannot run, 130 when stopped.
            """)

    @Argument(help: "An output directory written by forge build.", completion: .directory)
    var outputDirectory: String

    @Option(
        name: [.customLong("max-word-error-rate"), .customLong("max-wer")],
        help:
            "Largest word error rate a chunk may have, 0–1 (e.g. 0.15; the recipe's verify.maxWordErrorRate; default: the build's)."
    )
    var maxWordErrorRate: Double?

    @Option(
        name: [.short, .long],
        help: "Decoders running at once — here -j counts recognizer threads (default: one per core).")
    var jobs: Int?

    @Option(help: "Language of the text (default: the build's).")
    var language: String?

    @Flag(help: "Screen every item and transcribe a sample of chunks (and every chunk with a screened item), not all.")
    var quick = false

    @Flag(help: "Print a JSON report.")
    var json = false

    func validate() throws {
        try ValidationError.check("--max-word-error-rate", maxWordErrorRate, in: VerifySettings.allowedRates)
        try ValidationError.check("--jobs", jobs, in: BuildSettings.allowedJobs)
    }

    func run() async throws {
        // The chapters are timed, and the gate set, as the build recorded them, so the chunks heard
        // are the exported audio's and a build's own verification is reused.
        let directory = URL(fileURLWithPath: outputDirectory)
        let recorded: RecordedSettings?
        do {
            recorded = try RecordedSettings.recorded(inDirectory: directory)
        } catch {
            throw CommandFailure(error)
        }
        let pauses = recorded?.exportSettings ?? ExportSettings()
        let run = VerificationRun(
            outputDirectory: directory,
            settings: VerifySettings(
                maxWordErrorRate: maxWordErrorRate ?? recorded?.maxWordErrorRate, jobs: jobs,
                mode: quick ? .quick : .full,
                accepted: recorded?.acceptedItems ?? [:]),
            pauses: pauses, language: language ?? pauses.language)
        let cancellation = InterruptMonitor.flag
        let report: VerifyReport
        do {
            try await LeftAudio.fetch(into: directory, cancellation: cancellation)
            report = try run.run(cancellation: cancellation)
        } catch {
            throw CommandFailure(error)
        }
        VerifyPrinter.print(report, json: json)
        guard report.available else { throw ExitCode(ForgeExitCode.cannotRun.rawValue) }
        if cancellation.isCancelled { throw ExitCode(ForgeExitCode.cancelled.rawValue) }
        if !report.passed { throw ExitCode(ForgeExitCode.itemsFailed.rawValue) }
    }
}
