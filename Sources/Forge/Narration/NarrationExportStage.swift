import Foundation

/// Writes a narration's exports from the book as the timeline stage laid it out over the
/// recording's own pauses: the export job a build runs, with the reader's recording carried into
/// an EPUB as it came. Returns the files written and what the reader should know (a narrated
/// book's credits are the narrator's to record: none is synthesized beside them).
struct NarrationExportStage: PipelineStage {
    var settings: ExportSettings
    /// The recording's files as given, for an EPUB that carries them.
    let recording: RecordingFiles
    /// The aligned recording's length.
    let durationMs: Int
    var progress: @Sendable (ExportProgress) -> Void = { _ in }

    func run(_ book: BookTimeline, in context: NarrationContext) throws -> (files: [String], warnings: [Diagnostic]) {
        var settings = settings
        var warnings: [Diagnostic] = []
        if settings.credits, settings.formats.contains(.acx) || settings.formats.contains(.m4b) {
            warnings.append(
                .warning(
                    "the credits are not spoken for a narrated book.",
                    suggestion: "Record them and add them to the M4B or the ACX set yourself."))
            settings.credits = false
        }
        let outputDirectory = context.store.root
        var job = ExportJob(outputDirectory: outputDirectory, settings: settings, launch: nil)
        job.timeline = book
        job.progress = progress
        if settings.formats.contains(.epub) {
            job.carriedRecording = try recording.carried(in: outputDirectory, durationMs: durationMs)
        }
        // Written whatever an earlier export left: the recording is not among the export's stamped inputs.
        return (try job.exporter(settings).export(using: context.manifest).files, warnings)
    }
}
