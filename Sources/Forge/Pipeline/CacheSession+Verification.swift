import Foundation

/// The verification of chunks shared through the remote cache: what a chunk is filed under, the
/// chunks another machine heard from the same audio bytes, and this build's uploaded.
extension CacheSession {
    /// Where each chunk to transcribe is filed in the remote cache (its key and its audio's digests).
    func chunkActionKeys(_ plan: VerificationRun.Plan) throws -> [String: String] {
        var keys: [String: String] = [:]
        for chunk in plan.work {
            let items = plan.timelines[chunk.timeline].items(overlappingMs: chunk.startMs..<chunk.endMs)
            let objects = try manifest.objects(withKeys: items.compactMap(\.record.audioKey))
            let digests = items.map { objects[$0.record.audioKey ?? ""]?.sha256 ?? "-" }
            keys[chunk.key] = ChunkCacheEntry.actionKey(chunkKey: chunk.key, audioDigests: digests)
        }
        return keys
    }

    /// Takes from the remote cache the verification of chunks it holds (heard from the same audio
    /// bytes), recording them as this build's; the rest stay in the plan to be transcribed.
    mutating func downloadChunks(
        _ plan: inout VerificationRun.Plan, keys: [String: String], maxWordErrorRate: Double?, build: Int64
    ) async throws {
        let found = try await entries(plan.work.compactMap { keys[$0.key] })
        var remaining: [VerificationRun.Chunk] = []
        for chunk in plan.work {
            let timeline = plan.timelines[chunk.timeline]
            guard let data = keys[chunk.key].flatMap({ found[$0] }),
                let entry = try? JSONDecoder().decode(ChunkCacheEntry.self, from: data),
                entry.format == ChunkCacheEntry.formatName, entry.version == ChunkCacheEntry.currentVersion,
                entry.fits(
                    durationMs: chunk.endMs - chunk.startMs,
                    items: Set(timeline.items(overlappingMs: chunk.startMs..<chunk.endMs).map(\.record.id)))
            else {
                remaining.append(chunk)
                continue
            }
            let report = ChunkReport(
                chapter: timeline.chapter.ordinal, startMs: chunk.startMs, endMs: chunk.endMs,
                wordErrorRate: entry.wordErrorRate,
                referenceWords: entry.referenceWords, errors: entry.errors,
                flaggedItems: entry.flagged.map {
                    ChunkReport.FlaggedItem(itemID: $0.item, missingWords: $0.missing, extraWords: $0.extra ?? [])
                }, transcribed: false)
            try manifest.recordChunk(
                report, key: chunk.key, files: chunk.files, recognizer: plan.recognizer,
                passed: !report.isFlagged(maxWordErrorRate),
                sentences: entry.sentences.map {
                    (startMs: chunk.startMs + $0.startMs, endMs: chunk.startMs + $0.endMs, text: $0.text)
                }, build: build)
            plan.reports[ChunkPosition(chapter: report.chapter, startMs: report.startMs)] = report
        }
        traffic.downloadedChunks += plan.work.count - remaining.count
        plan.work = remaining
    }

    /// Uploads the verification of the chunks this build transcribed (entries only, a few kilobytes each).
    mutating func uploadChunks(
        _ transcribed: [VerificationRun.Chunk], plan: VerificationRun.Plan, keys: [String: String]
    ) async throws {
        guard !remote.settings.readOnly, !isUnavailable, !cancellation.isCancelled, !transcribed.isEmpty else {
            return
        }
        let stored = try manifest.storedChunks()
        var entries: [(String, Data)] = []
        for chunk in transcribed {
            let position = ChunkPosition(
                chapter: plan.timelines[chunk.timeline].chapter.ordinal, startMs: chunk.startMs)
            guard let actionKey = keys[chunk.key], let report = stored[position]?.report,
                stored[position]?.key == chunk.key
            else { continue }
            let sentences = try manifest.transcript(chapter: position.chapter, chunkStartMs: position.startMs).map {
                ChunkCacheEntry.Sentence(
                    startMs: $0.startMs - chunk.startMs, endMs: $0.endMs - chunk.startMs, text: $0.text)
            }
            let entry = ChunkCacheEntry(
                durationMs: chunk.endMs - chunk.startMs, wordErrorRate: report.wordErrorRate,
                referenceWords: report.referenceWords,
                errors: report.errors,
                flagged: report.flaggedItems.map {
                    .init(item: $0.itemID, missing: $0.missingWords, extra: $0.extraWords.isEmpty ? nil : $0.extraWords)
                }, sentences: sentences)
            entries.append((actionKey, entry.encoded()))
        }
        traffic.uploadedChunks += try await putEntries(entries)
    }
}
