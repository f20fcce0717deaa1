import Foundation

/// Writes the recipe's exports once every item is done and returns what it wrote and made; a stop
/// leaves every written file whole and the next build exports again. With a remote cache, the
/// chapters' AAC encodings another machine made (a shard) are taken first, so only the missing ones
/// are encoded here.
struct ExportStage: PipelineStage {
    let settings: ExportSettings
    /// The synthesis worker's launch, for the ACX credits (spoken before the export, as items are).
    let launch: WorkerPool.Launch

    func run(_ input: Void, in context: BuildContext) async throws -> ExportOutcome {
        context.progress(.phase("export"))
        let manifest = context.manifest
        var outcome = ExportOutcome()
        var prepared: [String: URL] = [:]
        defer { for file in prepared.values { unlink(file.path) } }
        do {
            let settings = try await CreditSpeech(outputDirectory: context.store.root, launch: launch, cancellation: context.cancellation)
                .prepare(settings, manifest: manifest)
            let current = Exporter(outputDirectory: context.store.root, settings: settings)
            // Exports already made from these inputs need nothing from the cache.
            let upToDate = current.upToDate(try current.stamp(manifest)) != nil
            if let remote = context.speechCache?.remote, !upToDate {
                var work = StageWork(context: context)
                let objects = ChapterObjectCache(remote: remote)
                // Laid out once for both, unless the ACX set is mastered otherwise (as the exporter does).
                let book = try TimelineBuilder(store: context.store, manifest: manifest, settings: settings).book()
                if Exporter.sharesAAC(settings) {
                    if ChapterEncoder.commonRate(book.chapters) != nil {
                        let encoder = ChapterEncoder(timelines: book.chapters, settings: settings, store: context.store, manifest: manifest)
                        outcome.downloadedEncodings = try await work.downloadEncodings(encoder, chapters: Array(book.chapters.indices), from: objects)
                    }
                }
                if settings.formats.contains(.acx) {
                    let acx = Exporter.acxSettings(settings)
                    let timelines = acx.mastering == settings.mastering
                        ? book.chapters : try TimelineBuilder(store: context.store, manifest: manifest, settings: acx).book().chapters
                    let files = try AudiobookExport.acxChapterFiles(timelines, chapterCount: timelines.count, settings: acx)
                    prepared = try await work.downloadACXFiles(files, timelines: timelines, from: objects)
                    outcome.downloadedACXFiles = prepared.count
                }
                outcome.traffic = work.traffic
            }
            // A long book spends minutes here: each chapter of each phase is reported, as items are.
            let progress = context.progress
            var exporter = Exporter(
                outputDirectory: context.store.root, settings: settings, cancellation: context.cancellation, progress: { progress(.exporting($0)) })
            exporter.preparedFiles = prepared
            let ready = exporter
            let report = try await BlockingThreads.run { try ready.exportIfChanged(using: manifest) }
            outcome.files = report.upToDate ? [] : report.files
            outcome.encodedChapters = report.upToDate ? 0 : report.encodedChapters
            return outcome
        } catch ExportError.cancelled {
            // Every file written is whole; the next build exports again (the stamp was not written).
            return outcome
        }
    }
}
