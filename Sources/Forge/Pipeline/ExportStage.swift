import Foundation

/// Writes the recipe's exports once every item is done and returns what it wrote and made; a stop
/// leaves every written file whole and the next build exports again. With a remote cache, the
/// chapters' AAC encodings another machine made (a shard) are taken first, so only the missing ones
/// are encoded here. Takes the book as the timeline stage laid it out.
struct ExportStage: PipelineStage {
    let settings: ExportSettings
    /// The synthesis worker's launch, for the ACX credits (spoken before the export, as items are).
    let launch: WorkerPool.Launch

    func run(_ book: BookTimeline, in context: BuildContext) async throws -> ExportOutcome {
        context.progress(.phase("export"))
        let manifest = context.manifest
        var outcome = ExportOutcome()
        var prepared: [String: URL] = [:]
        defer { for file in prepared.values { unlink(file.path) } }
        do {
            var job = ExportJob(
                outputDirectory: context.store.root, settings: settings, cancellation: context.cancellation,
                launch: launch)
            let settings = try await job.prepared(using: manifest)
            let current = job.exporter(settings)
            // Exports already made from these inputs need nothing from the cache.
            let upToDate = current.upToDate(try current.stamp(manifest)) != nil
            let remoteAudio = try manifest.remoteObjectKeys()
            if !upToDate && (context.speechCache != nil || !remoteAudio.isEmpty) {
                // The exporter's own layout of these settings (the same book unless their pauses differ).
                let book = book.laidOut(with: settings)
                let encoder =
                    Exporter.sharesAAC(settings) && ChapterEncoder.commonRate(book.chapters) != nil
                    ? ChapterEncoder(
                        chapters: book.chapters, settings: settings, store: context.store, manifest: manifest) : nil
                let acx = Exporter.acxSettings(settings)
                let acxTimelines = settings.formats.contains(.acx) ? book.laidOut(with: acx).chapters : []
                let acxFiles = try AudiobookExport.acxChapterFiles(
                    acxTimelines, chapterCount: acxTimelines.count, settings: acx)
                if let remote = context.speechCache?.remote {
                    var cache = context.cacheSession(remote)
                    if let encoder {
                        outcome.downloadedEncodings = try await cache.downloadEncodings(
                            encoder, pieces: Array(encoder.pieces.indices), from: cache.objects)
                    }
                    if !acxFiles.isEmpty {
                        prepared = try await cache.downloadACXFiles(
                            acxFiles, timelines: acxTimelines, from: cache.objects)
                        outcome.downloadedACXFiles = prepared.count
                    }
                    outcome.traffic = outcome.traffic + cache.traffic
                }
                if !remoteAudio.isEmpty {
                    let needed = try Self.audioRead(
                        by: settings, chapters: book.chapters, encoder: encoder,
                        acxChapters: Self.chapterIndices(
                            of: acxFiles.filter { prepared[$0.path] == nil }, in: book.chapters))
                    let fetched = try await context.fetchRemoteAudio(
                        needed.intersection(remoteAudio), for: "export", launch: launch)
                    outcome.synthesizedItems = fetched.synthesized
                    outcome.traffic = outcome.traffic + fetched.traffic
                }
            }
            // A long book spends minutes here: each chapter of each phase is reported, as items are.
            let progress = context.progress
            job.progress = { progress(.exporting($0)) }
            job.preparedFiles = prepared
            // Items made again here (their audio was not to be had) may last otherwise: laid out anew.
            job.timeline = outcome.synthesizedItems == 0 ? book : nil
            let ready = job
            let report = try await BlockingThreads.run { try ready.export(settings, using: manifest) }
            outcome.files = report.upToDate ? [] : report.files
            outcome.encodedChapters = report.upToDate ? 0 : report.encodedChapters
            return outcome
        } catch ExportError.cancelled {
            // Every file written is whole; the next build exports again (the stamp was not written).
            return outcome
        }
    }

    /// The indices in `chapters` of the chapters `files` are made from.
    static func chapterIndices(of files: [AudiobookExport.ACXChapterFile], in chapters: [ChapterTimeline]) -> [Int] {
        let ordinals = Set(files.map(\.ordinal))
        return chapters.indices.filter { ordinals.contains(chapters[$0].chapter.ordinal) }
    }

    /// The audio keys of the items whose samples the export reads: every chapter's for the formats
    /// that write chapter audio (or when chapters cannot share one AAC encoding), else the chapters
    /// pieces whose encoding is not stored (with the items on their neighbours' edges) and those whose ACX
    /// file was not taken from the cache (`acxChapters`, indices).
    static func audioRead(
        by settings: ExportSettings, chapters: [ChapterTimeline], encoder: ChapterEncoder?, acxChapters: [Int]
    ) throws -> Set<String> {
        let formats = Set(settings.formats)
        let writesChapterAudio =
            !formats.isDisjoint(with: [.audio, .html])
            || (formats.contains(.m4b) && encoder == nil)
            || (formats.contains(.epub) && (settings.epubAudio != .aac || encoder == nil))
        let indices = Set(writesChapterAudio ? Array(chapters.indices) : acxChapters)
        var keys = Set<String>()
        if let encoder, !writesChapterAudio {
            let identity = try ChapterEncoder.identity(settings)
            for index in encoder.pieces.indices
            where try encoder.stored(try encoder.encodingKey(index, identity: identity)) == nil {
                keys.formUnion(encoder.pieces[index].items.compactMap(\.record.audioKey))
                let (before, after) = encoder.edgeRanges(of: index)
                for (neighbour, range) in [before, after].compactMap({ $0 }) {
                    for item in encoder.pieces[neighbour].items(overlappingSamples: range) {
                        if let key = item.record.audioKey { keys.insert(key) }
                    }
                }
            }
        }
        for index in indices { keys.formUnion(chapters[index].items.compactMap(\.record.audioKey)) }
        return keys
    }
}
