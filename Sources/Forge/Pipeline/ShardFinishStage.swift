import Foundation

/// A shard's finishing of its own chapters (``BuildContext/shardAssignment``), once their items are
/// done: their verification chunks transcribed and their AAC encodings made (with the edges of the
/// chapters either side, whose edge items the shard made too), each shared through the remote cache
/// where the assembling build takes them; of a long chapter, the chunks and encoding pieces at the
/// shard's part of it. What the cache already has (a rerun of the shard) is taken, not made again.
struct ShardFinishStage: PipelineStage {
    func run(_ input: Void, in context: BuildContext) async throws -> ShardFinishing {
        guard let remote = context.speechCache?.remote, let assignment = context.shardAssignment,
            !context.cancellation.isCancelled
        else {
            return ShardFinishing()
        }
        let bookItems = try context.manifest.items()
        let shardItems = assignment.items(of: bookItems)
        let items = bookItems.filter { shardItems.contains($0.id) }
        guard !items.isEmpty, items.allSatisfy({ $0.status == .done }) else { return ShardFinishing() }
        // The ACX files are mastered beside the verification and the encodings, not after them: a
        // long chapter's part is one file on one core for a minute or more, which would otherwise
        // leave the other core idle at the shard's end.
        // (Should verifying or encoding fail, the mastering is awaited before the error goes on.)
        // ffmpeg's identity is asked here, once, before the two run side by side: both key their
        // files by it, and asking means waiting on a child process; two such waits at once held
        // both threads of the cooperative pool that the child's own task needed (a shard hung).
        if context.recipe.exports.formats.contains(.acx) || Exporter.sharesAAC(context.recipe.exports) {
            _ = try FFmpegEncoder.identity()
        }
        // Laid out once, the shard's items only (the chapters either side by their edge items): for
        // the encodings, and with the ACX set's pauses for its files.
        let exports = context.recipe.exports
        var builder = TimelineBuilder(store: context.store, manifest: context.manifest, settings: exports)
        builder.items = shardItems
        let book =
            exports.formats.contains(.acx) || Exporter.sharesAAC(exports) ? try builder.book() : nil
        async let mastered = master(book, assignment, remote: remote, in: context)
        var outcome = ShardFinishing()
        var cache = context.cacheSession(remote)
        try await verify(assignment, in: context, cache: &cache, into: &outcome)
        try await encode(book, assignment, in: context, cache: &cache, into: &outcome)
        let acx = try await mastered
        outcome.masteredACXFiles = acx.mastered
        outcome.uploadedACXFiles = acx.uploaded
        outcome.traffic = cache.traffic + acx.traffic
        return outcome
    }

    /// Transcribes the shard's verification chunks (those the cache does not have) and uploads them.
    private func verify(
        _ assignment: ShardAssignment, in context: BuildContext, cache: inout CacheSession,
        into outcome: inout ShardFinishing
    ) async throws {
        guard let settings = context.recipe.verify, !context.cancellation.isCancelled else { return }
        let (manifest, cancellation, progress, build) = (
            context.manifest, context.cancellation, context.progress, context.buildID
        )
        progress(.phase("verify"))
        var verification = VerificationRun(
            outputDirectory: context.store.root, settings: settings, pauses: context.recipe.exports,
            language: context.recipe.language)
        verification.chapters = assignment.itemChapters
        verification.shardAssignment = assignment
        guard case .ready(var plan) = try verification.plan(using: manifest) else { return }
        let keys = try cache.chunkActionKeys(plan)
        try await cache.downloadChunks(&plan, keys: keys, maxWordErrorRate: settings.maxWordErrorRate, build: build)
        let (transcribed, ready, run) = (plan.work, plan, verification)
        let report = try await BlockingThreads.run {
            try run.transcribe(ready, using: manifest, build: build, cancellation: cancellation) { chunk in
                progress(.verified(chunk))
            }
        }
        outcome.transcribedChunks = report.transcribedChunks
        try await cache.uploadChunks(transcribed, plan: plan, keys: keys)
    }

    /// Encodes the shard's AAC encodings (its chapters, and its pieces of a long chapter) that the
    /// cache does not have, and uploads them.
    private func encode(
        _ book: BookTimeline?, _ assignment: ShardAssignment, in context: BuildContext, cache: inout CacheSession,
        into outcome: inout ShardFinishing
    ) async throws {
        let exports = context.recipe.exports
        guard let book, Exporter.sharesAAC(exports), !context.cancellation.isCancelled else { return }
        let (manifest, cancellation, progress) = (context.manifest, context.cancellation, context.progress)
        progress(.phase("export"))
        guard ChapterEncoder.commonRate(book.chapters) != nil else { return }
        let encoder = ChapterEncoder(
            chapters: book.chapters, settings: exports, store: context.store, manifest: manifest)
        let pieces = encoder.pieces.indices.filter { index in
            let (piece, place) = (encoder.pieces[index], encoder.chapterOfPiece[index])
            return assignment.owns(
                chapter: piece.chapter.ordinal, stretch: place.start..<(place.start + piece.totalSamples),
                of: book.chapters[place.chapter].totalSamples, whole: place.of == 1)
        }
        outcome.downloadedEncodings = try await cache.downloadEncodings(encoder, pieces: pieces, from: cache.objects)
        let jobs = ChapterAudio.encodingJobs(exports)
        outcome.encodedChapters = try await BlockingThreads.run {
            try encoder.encodeAll(
                jobs: jobs, cancellation: cancellation, progress: { progress(.exporting($0)) }, only: pieces
            ).made
        }
        outcome.uploadedEncodings = try await cache.uploadEncodings(encoder, pieces: pieces, to: cache.objects)
    }

    /// Masters the shard's ACX files (its chapters', and its parts of a chapter too long for one
    /// file) that the cache does not have, and uploads them: how many, and the cache traffic.
    private func master(
        _ book: BookTimeline?, _ assignment: ShardAssignment, remote: RemoteCache, in context: BuildContext
    ) async throws -> (mastered: Int, uploaded: Int, traffic: CacheTraffic) {
        let exports = context.recipe.exports
        guard let book, exports.formats.contains(.acx), !context.cancellation.isCancelled else {
            return (0, 0, CacheTraffic())
        }
        let (manifest, cancellation, progress) = (context.manifest, context.cancellation, context.progress)
        var cache = context.cacheSession(remote)
        let acx = Exporter.acxSettings(exports)
        let timelines = book.laidOut(with: acx).chapters
        let chapterCount = try manifest.chapters().count
        let lengths = Dictionary(
            timelines.map { ($0.chapter.ordinal, $0.totalSamples) }, uniquingKeysWith: { first, _ in first })
        let files = try AudiobookExport.acxChapterFiles(timelines, chapterCount: chapterCount, settings: acx).filter {
            file in
            let length = lengths[file.ordinal] ?? 1
            return assignment.owns(
                chapter: file.ordinal, stretch: file.part ?? 0..<length, of: length, whole: file.part == nil)
        }
        // Made before (a rerun of this shard): in the cache already, asked without downloading.
        let cached = try await cache.acxFilesInCache(files, timelines: timelines, from: cache.objects)
        let missing = files.filter { !cached.contains($0.path) }
        guard !missing.isEmpty else { return (0, 0, cache.traffic) }
        let (root, store) = (context.store.root, context.store)
        try await BlockingThreads.run {
            var writer = ExportWriter(outputDirectory: root, folder: "exports", cancellation: cancellation)
            writer.progress = { progress(.exporting($0)) }
            try AudiobookExport.writeACXSet(
                timelines, settings: acx, store: store, to: &writer, only: Set(missing.map(\.path)),
                chapterCount: chapterCount)
        }
        let uploaded = try await cache.uploadACXFiles(missing, timelines: timelines, to: cache.objects)
        return (missing.count, uploaded, cache.traffic)
    }
}
