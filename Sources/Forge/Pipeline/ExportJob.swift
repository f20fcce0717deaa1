import Foundation

/// One export, driven the same way by a build's export stage, `forge export` and a narration's
/// import: its settings made ready (the ACX credits spoken by a synthesis worker into the store),
/// then the ``Exporter`` run over the output directory under its lock, and with `forge export
/// --pack` an audio pack beside or instead of the formats.
package struct ExportJob: Sendable {
    package let outputDirectory: URL
    package var settings: ExportSettings
    package var cancellation: CancellationFlag?
    /// Told after each chapter of each phase.
    package var progress: ExportProgress.Sink?
    /// Export even when `exports/` holds the files of an export from the same inputs.
    package var force = false
    /// Where an audio pack is written (nil: none).
    package var pack: URL?
    /// How to start a synthesis worker, for the ACX credits (nil: a narrated book, whose credits are not spoken).
    let launch: WorkerPool.Launch?
    /// The book as the build laid it out (``Exporter/timeline``).
    var timeline: BookTimeline?
    /// ACX chapter files taken from the remote cache (``Exporter/preparedFiles``).
    var preparedFiles: [String: URL] = [:]
    /// The reader's recording, carried by the EPUB of their own book (``Exporter/carriedRecording``).
    var carriedRecording: CarriedRecording?

    package init(
        outputDirectory: URL, settings: ExportSettings, cancellation: CancellationFlag? = nil,
        launch: WorkerPool.Launch?
    ) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.settings = settings
        self.cancellation = cancellation
        self.launch = launch
    }

    /// What ``run()`` did.
    package struct Outcome: Sendable {
        package var report: ExportReport
        /// Items in the audio pack, when one was written.
        package var packItems: Int?
    }

    /// Exports from an output directory no build is using: the pack, then the formats (taking the
    /// directory's lock, speaking the credits first).
    package func run() async throws -> Outcome {
        var outcome = Outcome(report: ExportReport(files: [], chapters: 0, durationMs: 0))
        if let pack {
            let writer = AudioPack(outputDirectory: outputDirectory, settings: settings, cancellation: cancellation)
            outcome.packItems = try await BlockingThreads.run { try writer.write(to: pack) }
        }
        guard !settings.formats.isEmpty else { return outcome }
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path)
        else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        // Writable: credits and encoded chapters are recorded in it.
        let manifest = try Manifest(directory: outputDirectory, create: true)
        let lock = try OutputLock(directory: outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        try OwnedDirectory(root: outputDirectory).leftovers(remove: true)
        let ready = try await prepared(using: manifest)
        let job = self
        outcome.report = try await BlockingThreads.run { try job.export(ready, using: manifest) }
        return outcome
    }

    /// The settings made ready for the exporter: the ACX credits' audio spoken into the store (as
    /// items are) and named. The caller holds the directory's lock.
    func prepared(using manifest: Manifest) async throws -> ExportSettings {
        guard let launch else { return settings }
        return try await CreditSpeech(outputDirectory: outputDirectory, launch: launch, cancellation: cancellation)
            .prepare(settings, manifest: manifest)
    }

    /// Exports with `prepared` settings (``prepared(using:)``) unless the last export was made from
    /// the same inputs (and not ``force``d). The caller holds the directory's lock.
    func export(_ prepared: ExportSettings, using manifest: Manifest) throws -> ExportReport {
        try exporter(prepared).exportUnlessUpToDate(using: manifest, force: force)
    }

    /// The exporter for `prepared` settings, with what the job carries.
    func exporter(_ prepared: ExportSettings) -> Exporter {
        var exporter = Exporter(
            outputDirectory: outputDirectory, settings: prepared, cancellation: cancellation, progress: progress)
        exporter.timeline = timeline
        exporter.preparedFiles = preparedFiles
        exporter.carriedRecording = carriedRecording
        return exporter
    }
}
