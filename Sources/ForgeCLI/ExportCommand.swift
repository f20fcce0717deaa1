import ArgumentParser
import Forge
import Foundation

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Derive read-along files from a finished build: chapter audio, JSON timings, captions, EPUB 3, HTML.",
        discussion: """
            With --pack file.zip, writes an audio pack: audio/chapter-NNN/NNNN.<ext> and timings/chapter-NNN/NNNN.json for every item, \
            index.json and manifest.sqlite. Otherwise files go under <output dir>/exports/: audio/chapter-NNN.<ext>, json/chapter-NNN.json and json/items/<id>.json, \
            captions/chapter-NNN.vtt|srt, epub/<title>.epub, html/chapter-NNN.html (opens straight from disk). \
            Every export reads the same chapter timeline (items joined with the pauses below), so their times agree. \
            docs/exports.md describes each format. Exit 0 when written, 2 on bad arguments, 3 when the build is incomplete or a file could not be written.
            """)

    @Argument(help: "An output directory written by forge build.", completion: .directory)
    var outputDirectory: String

    @Option(
        name: .shortAndLong, parsing: .upToNextOption,
        help:
            "Formats to write: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (several allowed, or \"all\")."
    )
    var format: [FormatList] = []

    @Option(
        help:
            "Write an audio pack instead: a zip of every item's audio and timings, index.json and the manifest (add --format to write both).",
        completion: .file(extensions: ["zip"]))
    var pack: String?

    // Without these options, the export uses what the build recorded in the manifest (the recipe's
    // title, language, author, pauses, cues, overlays and mastering), so it matches the build's own export.
    @Option(
        name: [.customLong("sentence-ms"), .customLong("sentence-pause")],
        help:
            "Pause between items cut from one paragraph, in ms (the recipe's exports.pauses.sentenceMs; default: the build's)."
    )
    var sentencePause: Int?
    @Option(
        name: [.customLong("paragraph-ms"), .customLong("paragraph-pause")],
        help: "Pause between paragraphs, in ms (exports.pauses.paragraphMs; default: the build's).")
    var paragraphPause: Int?
    @Option(
        name: [.customLong("chapter-ms"), .customLong("chapter-pause")],
        help: "Pause at the end of each chapter, in ms (exports.pauses.chapterMs; default: the build's).")
    var chapterPause: Int?
    @Option(
        name: [.customLong("max-cue-characters"), .customLong("max-cue-length")],
        help: "Longest caption cue, in characters (exports.maxCueCharacters; default: the build's).")
    var maxCueLength: Int?
    @Option(
        help:
            "The EPUB's chapter audio: aac (the M4B's encoding, shared) or mp3 (exports.epubAudio; default: the build's, else aac)."
    )
    var epubAudio: ExportSettings.EPUBAudioCodec?
    @Flag(
        name: [.customLong("word-level-overlays"), .customLong("word-overlays")],
        help:
            "Give every word an id and a SMIL entry in the EPUB (exports.wordLevelOverlays; default: the build's; else sentences)."
    )
    var wordOverlays = false
    @Option(help: "Book title for the EPUB and HTML pages (default: the build's recipe title).")
    var title: String?
    @Option(help: "Language of the text (BCP 47) for the EPUB and HTML pages (default: the build's).")
    var language: String?

    @Option(
        help: "Master the chapter audio (also in the EPUB and M4B) to a profile, or not (none) (default: the build's).")
    var mastering: MasteringChoice?
    @Option(help: "Author, for the M4B and EPUB metadata (default: the build's).")
    var author: String?
    @Option(help: "Cover image (.jpg or .png) for the M4B.", completion: .file(extensions: ["jpg", "jpeg", "png"]))
    var cover: String?

    @Option(
        help:
            "The opening credits (title, author, narrator) of the M4B and the ACX set, spoken as a chapter and a file of their own (default: the build's)."
    )
    var openingCredit: String?
    @Option(help: "The closing credits of the M4B and the ACX set (default: the build's).")
    var closingCredit: String?
    @Flag(help: "Leave the credits out of the M4B and the ACX set.")
    var noCredits = false

    @Flag(help: "Write the exports even when exports/ already holds them from the same build, settings and formats.")
    var force = false

    @Flag(help: "Print a JSON report.")
    var json = false

    @Option(
        help:
            "How progress is printed on standard error: text (a line at every 5% of each phase), json (JSON Lines, an exporting event per chapter) or none."
    )
    var progress: ProgressStyle = .text

    @Flag(help: "List every file written (the JSON report always does).")
    var verbose = false

    func validate() throws {
        try ValidationError.check("--sentence-ms", sentencePause, in: ExportSettings.allowedPauses)
        try ValidationError.check("--paragraph-ms", paragraphPause, in: ExportSettings.allowedPauses)
        try ValidationError.check("--chapter-ms", chapterPause, in: ExportSettings.allowedPauses)
        try ValidationError.check("--max-cue-characters", maxCueLength, in: ExportSettings.allowedCueCharacters)
        if let title, title.count > ExportSettings.maximumTitleCharacters {
            throw ValidationError(
                "--title must be at most \(ExportSettings.maximumTitleCharacters) characters; found \(title.count).")
        }
    }

    /// The formats asked for; all of them when neither `--format` nor `--pack` is given.
    var formats: [ExportFormat] { format.isEmpty && pack == nil ? ExportFormat.allCases : format.formats }

    func run() async throws {
        let directory = URL(fileURLWithPath: outputDirectory).standardizedFileURL
        let clock = ContinuousClock.now
        let cancellation = InterruptMonitor.flag
        // Each file is written whole or not at all, so a stop ends the export between files.
        cancellation.beginKeepingWork()
        let settings: ExportSettings
        let outcome: ExportJob.Outcome
        do {
            settings = try RecordedSettings.exportSettings(inDirectory: directory, merging: overrides)
            try await LeftAudio.fetch(into: directory, cancellation: cancellation)
            outcome = try await job(directory: directory, settings: settings, cancellation: cancellation).run()
        } catch {
            throw CommandFailure(error)
        }
        let (report, packItems) = (outcome.report, outcome.packItems)
        let seconds = Format.seconds(since: clock)
        if json {
            try JSONOutput.printReport(
                ExportReportJSON(
                    report, output: directory.path, elapsedSeconds: seconds, pack: pack, packItems: packItems))
        } else {
            if let pack, let packItems {
                print("Wrote the audio pack \(pack): \(packItems) items, their timings, index.json and the manifest.")
            }
            if settings.formats.isEmpty { return }
            if report.upToDate {
                print(
                    "Up to date: \(directory.path)/exports already holds these \(report.files.count) file(s), made from the same items, timings and settings (--force writes them again)."
                )
                if verbose { for file in report.files { print("  \(directory.path)/\(file)") } }
                return
            }
            print(
                "Exported \(report.chapters) chapter(s), \(Format.clock(seconds: Double(report.durationMs) / 1000)) of audio, in \(String(format: "%.2f", seconds)) s, to \(directory.path)/exports:"
            )
            // A line per format; every file only when asked (a 50-hour book writes thousands).
            for folder in report.folders(in: directory) {
                let files = folder.files == 1 ? "1 file" : "\(folder.files) files"
                print(
                    "  \(folder.name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(files.padding(toLength: 12, withPad: " ", startingAt: 0)) \(Format.bytes(Int(folder.bytes)))"
                )
            }
            if verbose { for file in report.files { print("  \(directory.path)/\(file)") } }
        }
    }

    /// What the options say instead of the build's recorded settings.
    var overrides: ExportOverrides {
        var overrides = ExportOverrides()
        overrides.formats = formats
        overrides.sentencePauseMs = sentencePause
        overrides.paragraphPauseMs = paragraphPause
        overrides.chapterPauseMs = chapterPause
        overrides.maxCueCharacters = maxCueLength
        overrides.wordLevelOverlays = wordOverlays ? true : nil
        overrides.epubAudio = epubAudio
        overrides.title = title
        overrides.language = language
        overrides.mastering = mastering.map(\.settings)
        overrides.author = author
        overrides.openingCredit = openingCredit
        overrides.closingCredit = closingCredit
        overrides.credits = noCredits ? false : nil
        overrides.cover = cover.map { URL(fileURLWithPath: $0) }
        return overrides
    }

    /// The export job, printing its progress on standard error as `--progress` says.
    private func job(directory: URL, settings: ExportSettings, cancellation: CancellationFlag) -> ExportJob {
        var job = ExportJob(
            outputDirectory: directory, settings: settings, cancellation: cancellation,
            launch: WorkerPool.Launch(executable: StageRunner.executableURL(), arguments: ["worker"]))
        job.force = force
        job.pack = pack.map { URL(fileURLWithPath: $0).standardizedFileURL }
        switch progress {
        case .text:
            let printer = ExportProgressPrinter()
            job.progress = { printer.report($0) }
        case .json:
            job.progress = { JSONOutput.writeLine(BuildEventJSON(.exporting($0)), to: .standardError) }
        case .none:
            break
        }
        return job
    }
}
