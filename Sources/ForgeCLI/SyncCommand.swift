import ArgumentParser
import Forge
import Foundation

struct SyncCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Join an ebook and its audiobook: the reader's own EPUB with media overlays from the recording.",
        discussion: """
            forge sync book.epub audiobook/ -o out: aligns the audiobook (one file — MP3, M4B/M4A, FLAC, Ogg/Opus, WAV — a folder \
            of numbered tracks, or several files in order) to the book's text, as forge align narration does, and writes \
            out/exports/epub/<title>.epub: the book's own EPUB 3 (every document, style, image, font and navigation entry kept) \
            with every sentence given a media overlay over the narration (MP3 tracks and M4Bs carried as they came). Reports where recording and text disagree (an intro, \
            credits, a skipped passage). A book that is not EPUB 3 (EPUB 2, plain text, Markdown, HTML) gets Forge's own \
            read-along EPUB. Exit 0 when written, 1 when recording and text disagree beyond --max-unmatched (nothing is \
            exported), 2 on bad input, 3 when a tool is missing.
            """)

    @Argument(
        help: "The ebook: EPUB (2 or 3), or a text Forge reads (plain text, Markdown, HTML).", completion: .file())
    var book: String

    @Argument(
        help: "The audiobook: one file, a folder of tracks, or several files in reading order.", completion: .file())
    var audio: [String]

    @Option(name: [.short, .long], help: "The output directory.")
    var output: String

    @OptionGroup var narration: NarrationOptions

    var verbose: Bool { narration.verbose }

    func validate() throws {
        if audio.isEmpty { throw ValidationError("Give the audiobook: a file, a folder of tracks, or several files.") }
    }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let bookURL = URL(fileURLWithPath: book, relativeTo: cwd)
        let exports = NarrationImport.exportSettings(
            title: narration.title ?? bookURL.deletingPathExtension().lastPathComponent, formats: [.epub])
        var job = NarrationImport(
            audioFiles: audio.map { URL(fileURLWithPath: $0, relativeTo: cwd) }, textFile: bookURL,
            outputDirectory: URL(fileURLWithPath: output, relativeTo: cwd),
            maxUnmatched: narration.maxUnmatched ?? NarrationImport.defaultMaxUnmatched)
        // Front matter and headings a narrator does not read are left out of the overlays, not a failure.
        job.keepsUnnarrated = true
        job.method = narration.aligner
        let report = try NarrationPrinter.run(job, exports: exports, json: narration.json)
        NarrationPrinter.print(report, json: narration.json)
        if !report.passed { throw ExitCode(ForgeExitCode.itemsFailed.rawValue) }
    }
}
