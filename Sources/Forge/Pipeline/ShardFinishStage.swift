import Foundation

/// A shard's finishing of its own chapters (``BuildContext/shardAssignment``), once their items are
/// done: their verification chunks transcribed and their AAC encodings made (with the edges of the
/// chapters either side, whose items the shard made too), each shared through the remote cache
/// where the assembling build takes them; of a long chapter, the chunks and encoding pieces at the
/// shard's part of it. What the cache already has (a rerun of the shard) is taken, not made again.
struct ShardFinishStage: PipelineStage {
    func run(_ input: Void, in context: BuildContext) async throws -> ShardFinishing {
        var outcome = ShardFinishing()
        guard let remote = context.speechCache?.remote, let assignment = context.shardAssignment, !context.cancellation.isCancelled else { return outcome }
        let manifest = context.manifest
        let items = try manifest.items().filter { context.shardItemChapters.contains($0.chapter) }
        guard !items.isEmpty, items.allSatisfy({ $0.status == .done }) else { return outcome }
        var work = StageWork(context: context)
        let (cancellation, progress, build) = (context.cancellation, context.progress, context.buildID)

        if let settings = context.recipe.verify {
            progress(.phase("verify"))
            var verification = VerificationRun(
                outputDirectory: context.store.root, settings: settings, pauses: context.recipe.exports, language: context.recipe.language)
            verification.chapters = context.shardItemChapters
            verification.shardAssignment = assignment
            if case var .ready(plan) = try verification.plan(using: manifest) {
                let keys = try work.chunkActionKeys(plan)
                try await work.downloadChunks(&plan, keys: keys, from: remote, maxWordErrorRate: settings.maxWordErrorRate)
                let (transcribed, ready, run) = (plan.work, plan, verification)
                let report = try await BlockingThreads.run {
                    try run.transcribe(ready, using: manifest, build: build, cancellation: cancellation) { chunk in progress(.verified(chunk)) }
                }
                outcome.transcribedChunks = report.transcribedChunks
                try await work.uploadChunks(transcribed, plan: plan, keys: keys, to: remote)
            }
        }

        let exports = context.recipe.exports
        if Exporter.sharesAAC(exports), !cancellation.isCancelled {
            progress(.phase("export"))
            var builder = TimelineBuilder(store: context.store, manifest: manifest, settings: exports)
            builder.chapters = context.shardItemChapters
            let book = try builder.book()
            if ChapterEncoder.commonRate(book.chapters) != nil {
                let encoder = ChapterEncoder(chapters: book.chapters, settings: exports, store: context.store, manifest: manifest)
                let chapters = encoder.pieces.indices.filter { index in
                    let (chapter, piece) = (encoder.pieces[index].chapter, encoder.chapterOfPiece[index])
                    let whole = book.chapters[piece.chapter]
                    let middle = Double(piece.start) + Double(encoder.pieces[index].totalSamples) / 2
                    return assignment.owns(chapter: chapter.ordinal, at: middle / Double(max(1, whole.totalSamples)), whole: piece.of == 1)
                }
                let objects = ChapterObjectCache(remote: remote)
                outcome.downloadedEncodings = try await work.downloadEncodings(encoder, pieces: chapters, from: objects)
                let jobs = ChapterAudio.encodingJobs(exports)
                let made = try await BlockingThreads.run {
                    try encoder.encodeAll(jobs: jobs, cancellation: cancellation, progress: { progress(.exporting($0)) }, only: chapters).made
                }
                outcome.encodedChapters = made
                outcome.uploadedEncodings = try await work.uploadEncodings(encoder, pieces: chapters, to: objects)
            }
        }
        if exports.formats.contains(.acx), !cancellation.isCancelled {
            progress(.phase("export"))
            let acx = Exporter.acxSettings(exports)
            var builder = TimelineBuilder(store: context.store, manifest: manifest, settings: acx)
            builder.chapters = context.shardItemChapters
            let timelines = try builder.book().chapters
            let chapterCount = try manifest.chapters().count
            let lengths = Dictionary(timelines.map { ($0.chapter.ordinal, $0.totalSamples) }, uniquingKeysWith: { first, _ in first })
            let files = try AudiobookExport.acxChapterFiles(timelines, chapterCount: chapterCount, settings: acx).filter { file in
                guard let part = file.part else { return assignment.owns(chapter: file.ordinal, at: 0.5, whole: true) }
                let middle = Double(part.lowerBound + part.upperBound) / 2 / Double(max(1, lengths[file.ordinal] ?? 1))
                return assignment.owns(chapter: file.ordinal, at: middle, whole: false)
            }
            let objects = ChapterObjectCache(remote: remote)
            // Made before (a rerun of this shard): in the cache already, asked without downloading.
            let cached = try await work.acxFilesInCache(files, timelines: timelines, from: objects)
            let missing = files.filter { !cached.contains($0.path) }
            if !missing.isEmpty {
                let (root, store) = (context.store.root, context.store)
                try await BlockingThreads.run {
                    var writer = ExportWriter(outputDirectory: root, folder: "exports", cancellation: cancellation)
                    writer.progress = { progress(.exporting($0)) }
                    try AudiobookExport.writeACXSet(
                        timelines, settings: acx, store: store, to: &writer, only: Set(missing.map(\.path)), chapterCount: chapterCount)
                }
                outcome.masteredACXFiles = missing.count
                outcome.uploadedACXFiles = try await work.uploadACXFiles(missing, timelines: timelines, to: objects)
            }
        }
        outcome.traffic = work.traffic
        return outcome
    }
}
