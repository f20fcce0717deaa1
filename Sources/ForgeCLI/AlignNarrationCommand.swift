import ArgumentParser
import Forge
import Foundation

struct AlignNarrationCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "narration",
        abstract:
            "Align a narration (a recording of the text) to its text: word timings, a manifest like a build's, and where the two disagree.",
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

    @OptionGroup var narration: NarrationOptions

    var verbose: Bool { narration.verbose }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let bookTitle = narration.title ?? URL(fileURLWithPath: text).deletingPathExtension().lastPathComponent
        var exports: ExportSettings?
        if !export.isEmpty {
            exports = NarrationImport.exportSettings(title: bookTitle, formats: export.formats)
        } else if narration.title != nil {
            exports = NarrationImport.exportSettings(title: bookTitle)
        }
        var job = NarrationImport(
            audioFile: URL(fileURLWithPath: audio, relativeTo: cwd),
            textFile: URL(fileURLWithPath: text, relativeTo: cwd),
            outputDirectory: URL(fileURLWithPath: output, relativeTo: cwd),
            maxUnmatched: narration.maxUnmatched ?? NarrationImport.defaultMaxUnmatched)
        job.method = narration.aligner
        let report = try NarrationPrinter.run(job, exports: exports, json: narration.json)
        NarrationPrinter.print(report, json: narration.json)
        if !report.passed { throw ExitCode(ForgeExitCode.itemsFailed.rawValue) }
    }

}
