import Foundation

extension StageWork {
    /// Keeps only the jobs of items of `chapters` (a shard's); the items of the other shards stay
    /// pending for their machines (and for the assembling build, which downloads them). Returns how
    /// many items were left out.
    func restrict(_ plan: inout SpeakPlan, toChapters chapters: Set<Int>) -> Int {
        var left = 0
        plan.jobs = plan.jobs.filter { job in
            if plan.waiting[job.audioKey]?.contains(where: { chapters.contains($0.chapter) }) == true { return true }
            left += plan.waiting.removeValue(forKey: job.audioKey)?.count ?? 0
            return false
        }
        return left
    }

    /// How many rejected entries or blobs set the cache aside for the rest of the build.
    static let rejectionsBeforeSettingAside = 20

    /// Looks every job up in the remote cache, a few at a time; jobs whose objects arrive (every
    /// digest checked) are recorded as downloaded and leave the plan, the rest are synthesized.
    /// A cache that fails stops the lookups with one warning, or the build when it is required.
    mutating func download(_ plan: inout SpeakPlan, align: Bool, from cache: SpeechCache) async throws {
        guard !plan.jobs.isEmpty, !cacheUnavailable else { return }
        let extensionName = recipe.audio.format.fileExtension
        let mimeType = recipe.audio.format.mimeType
        let cancellation = cancellation
        var found: Set<String> = []
        var failure: RemoteCacheError?
        var mismatches = 0
        var bytes = 0

        // A service's items are not made again to check the cache: each costs money, and neural voices differ run to run.
        let services = recipe.services
        let spotChecked = Self.spotChecked(plan.jobs.filter { services[$0.voice.engine] == nil })
        let leaving = leavesAudioInCache
        var checks: [String: SpotCheck] = [:]

        await BoundedTasks.run(
            plan.jobs, limit: RemoteCache.connections, cancellation: cancellation,
            perform: { job in
                await Self.lookUp(
                    job, spotCheck: spotChecked.contains(job.audioKey), leavingAudio: leaving, in: cache,
                    audioExtension: extensionName, mimeType: mimeType)
            },
            take: { job, answer in
                switch answer {
                case .missing:
                    return .goOn
                case .spotCheck(let digest):
                    checks[job.audioKey] = SpotCheck(itemID: job.itemID, digest: digest)
                    return .goOn
                case .found(let download):
                    // An item is recorded only once its objects are stored; a stop leaves the rest pending.
                    do {
                        try recordDownload(job, download, waiting: &plan.waiting, align: align)
                        found.insert(job.audioKey)
                        bytes += download.bytes
                        return .goOn
                    } catch {
                        if failure == nil, let error = error as? RemoteCacheError { failure = error }
                        return .cancelRest
                    }
                case .failed(let error):
                    switch error {
                    case .digestMismatch, .blobSize, .malformedEntry, .badAnswer, .localStore:
                        // One bad entry or blob: that item is synthesized (and its entry replaced by the upload).
                        mismatches += 1
                        if mismatches <= 5 {
                            progress(.diagnostic(.warning(ErrorReason.message(error), item: job.itemID)))
                        }
                        ForgeLog.notice("remote cache: \(job.itemID): \(ErrorReason.message(error))")
                        // A server that keeps sending what is rejected is set aside: each rejection costs a request.
                        if mismatches == Self.rejectionsBeforeSettingAside, failure == nil {
                            failure = .unavailable(
                                cache: cache.remote.settings.name,
                                reason: "\(mismatches) of the entries or blobs it sent were rejected")
                            return .cancelRest
                        }
                        return .goOn
                    default:
                        if failure == nil { failure = error }
                        return .cancelRest
                    }
                }
            })
        plan.jobs.removeAll { found.contains($0.audioKey) }
        spotChecks = checks
        traffic.downloadedBytes += bytes
        if mismatches > 5 {
            progress(
                .diagnostic(
                    .warning(
                        "\(mismatches - 5) more items had entries or blobs in the remote cache that were rejected; they are synthesized here"
                    )))
        }
        if let failure { try cacheFailed(failure) }
        guard !cancellation.isCancelled else { return }
        progress(.remoteCache(looked: found.count + plan.jobs.count, found: found.count, bytes: bytes))
    }

    /// The jobs whose hits are made here instead and compared with the cache's digest
    /// (docs/remote-cache.md): about 1 in 32, chosen by audio key, and one more in every build.
    static func spotChecked(_ jobs: [SpeechJob]) -> Set<String> {
        var keys = Set(jobs.lazy.map(\.audioKey).filter(SpeechCache.isSpotChecked))
        if let first = jobs.min(by: {
            SpeechCache.spotCheckDigest($0.audioKey) < SpeechCache.spotCheckDigest($1.audioKey)
        }) {
            keys.insert(first.audioKey)
        }
        return keys
    }

    /// What the remote cache answered for one job.
    enum RemoteAnswer: Sendable {
        case found(SpeechCache.Download)
        case spotCheck(digest: String)
        case missing
        case failed(RemoteCacheError)
    }

    /// Asks the cache for one job: its objects (every digest checked), or, for a spot-checked job,
    /// only the digest its entry names (the item is made here and compared).
    static func lookUp(
        _ job: SpeechJob, spotCheck: Bool, leavingAudio: Bool, in cache: SpeechCache, audioExtension: String,
        mimeType: String
    ) async -> RemoteAnswer {
        do throws(RemoteCacheError) {
            if spotCheck {
                guard
                    let (entry, _) = try await cache.entry(
                        audioKey: job.audioKey, item: job.itemID, voice: job.voice.uri, audioExtension: audioExtension)
                else { return .missing }
                return .spotCheck(digest: entry.audio.sha256)
            }
            guard
                let download = try await cache.fetch(
                    audioKey: job.audioKey, eventsKey: job.eventsKey, item: job.itemID, voice: job.voice.uri,
                    audioExtension: audioExtension,
                    mimeType: mimeType, leavingAudio: leavingAudio)
            else { return .missing }
            return .found(download)
        } catch {
            return .failed(error)
        }
    }

    /// Compares the items spot-checked in ``download(_:align:from:)``, now made here, with the
    /// digests the cache gave for them: a difference is a warning naming item, digests and cache;
    /// the local bytes are kept (and uploaded in place of the cache's entry).
    mutating func reportSpotChecks() throws {
        guard !spotChecks.isEmpty, let name = recipe.cache?.name else { return }
        let made = try manifest.objects(withKeys: Array(spotChecks.keys))
        for (audioKey, check) in spotChecks.sorted(by: { $0.key < $1.key }) {
            let digest = check.digest
            guard let local = made[audioKey]?.sha256 else { continue }
            traffic.spotChecked += 1
            if local != digest {
                traffic.spotCheckMismatches += 1
                progress(
                    .diagnostic(
                        .warning(
                            "Item \(check.itemID): the remote cache \(name) serves audio \(digest.prefix(12))… for it, but made here it is \(local.prefix(12))…; the bytes made here are kept. Items from this cache may not be what their keys say: check it with `forge build --check-reproducible`.",
                            item: check.itemID)))
            } else {
                uploadedKeys.append(audioKey)
            }
        }
        spotChecks.removeAll()
    }

    private mutating func recordDownload(
        _ job: SpeechJob, _ download: SpeechCache.Download, waiting: inout [String: [ItemRecord]], align: Bool
    ) throws {
        let items = waiting.removeValue(forKey: job.audioKey) ?? []
        for item in items {
            let remote = download.remote.map { ItemUpdate.RemoteAudio(cache: recipe.cache?.name ?? "", signal: $0) }
            var updates: [ItemUpdate] = [
                .downloaded(
                    itemID: item.id, audio: download.audio, events: download.events, voice: download.voice,
                    remote: remote)
            ]
            if align, let update = try alignment(for: item, eventsKey: job.eventsKey, document: download.document) {
                updates.append(update)
            }
            try record(
                updates, itemID: item.id, ordinal: item.ordinal, outcome: .downloaded,
                audioMs: download.document.durationMs)
        }
        if !items.isEmpty {
            uploadedKeys.append(job.audioKey)
            if download.remote != nil {
                traffic.leftInCache += 1
                traffic.leftInCacheBytes += download.audio.bytes
            }
        }
    }

    /// One warning and no more use of the cache in this build; with `cache.required`, the build stops.
    mutating func cacheFailed(_ error: RemoteCacheError) throws {
        try CacheSession.fail(
            error, health: context.remoteCacheHealth, required: recipe.cache?.required == true,
            cache: recipe.cache?.name ?? "", cancellation: cancellation, warn: { progress(.diagnostic($0)) })
    }

    /// Starts uploading in the background (a writable cache that has not failed).
    mutating func startUploads(to cache: SpeechCache) {
        guard let settings = recipe.cache, !settings.readOnly, !cacheUnavailable else { return }
        uploader = CacheUploader(cache: cache)
    }

    /// Queues the synthesized items the cache does not hold yet (this build's and earlier ones'),
    /// waits for the uploads and records them; a stop abandons what is in flight.
    mutating func finishUploads() async throws {
        guard let uploader, let settings = recipe.cache else { return }
        self.uploader = nil
        // Downloaded items are in the cache already: recorded first, so they are not queued again below.
        try manifest.recordUploads(uploadedKeys, cache: settings.name)
        uploadedKeys.removeAll()
        if !cancellation.isCancelled && !cacheUnavailable {
            for speech in try manifest.speechAwaitingUpload(cache: settings.name) { uploader.enqueue(speech) }
        }
        // A stop while waiting for uploads abandons them at once.
        let watcher = Task { [cancellation] in
            while !cancellation.isCancelled && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(100)) }
            if cancellation.isCancelled { uploader.abort() }
        }
        let outcome = await uploader.finish()
        watcher.cancel()
        try manifest.recordUploads(outcome.uploaded, cache: settings.name)
        traffic.uploaded += outcome.uploaded.count
        traffic.uploadedBytes += outcome.bytes
        if outcome.uploaded.count > 0 { progress(.uploaded(items: outcome.uploaded.count, bytes: outcome.bytes)) }
        if let failure = outcome.failure, !cancellation.isCancelled { try cacheFailed(failure) }
    }
}

extension StageWork {
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

    /// The remote cache as this stage uses it (its traffic is the session's to add to the stage's).
    func cacheSession(_ remote: RemoteCache) -> CacheSession {
        CacheSession(
            remote: remote, health: context.remoteCacheHealth, required: recipe.cache?.required == true,
            store: store, manifest: manifest, cancellation: cancellation,
            warn: { [progress] in progress(.diagnostic($0)) })
    }

    /// Runs `body` with a session on `remote`, adding what it moved to this stage's traffic.
    mutating func withCache<Result>(
        _ remote: RemoteCache, _ body: (inout CacheSession) async throws -> Result
    ) async throws -> Result {
        var session = cacheSession(remote)
        defer { traffic = traffic + session.traffic }
        return try await body(&session)
    }

    /// Takes from the remote cache the verification of chunks it holds (heard from the same audio
    /// bytes), recording them as this build's; the rest stay in the plan to be transcribed.
    mutating func downloadChunks(
        _ plan: inout VerificationRun.Plan, keys: [String: String], from cache: RemoteCache, maxWordErrorRate: Double?
    ) async throws {
        let found = try await withCache(cache) { try await $0.entries(plan.work.compactMap { keys[$0.key] }) }
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
                }, build: buildID)
            plan.reports[ChunkPosition(chapter: report.chapter, startMs: report.startMs)] = report
        }
        traffic.downloadedChunks = plan.work.count - remaining.count
        plan.work = remaining
    }

    /// Uploads the verification of the chunks this build transcribed (entries only, a few kilobytes each).
    mutating func uploadChunks(
        _ transcribed: [VerificationRun.Chunk], plan: VerificationRun.Plan, keys: [String: String],
        to cache: RemoteCache
    ) async throws {
        guard !cache.settings.readOnly, !cacheUnavailable, !cancellation.isCancelled, !transcribed.isEmpty else {
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
        traffic.uploadedChunks += try await withCache(cache) { try await $0.putEntries(entries) }
    }
}
