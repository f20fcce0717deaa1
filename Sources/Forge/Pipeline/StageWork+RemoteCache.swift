import Foundation

extension StageWork {
    /// Keeps only the jobs of `items` (a shard's, by id); the items of the other shards stay
    /// pending for their machines (and for the assembling build, which downloads them). Returns how
    /// many items were left out.
    func restrict(_ plan: inout SpeakPlan, toItems items: Set<String>) -> Int {
        var left = 0
        plan.jobs = plan.jobs.filter { job in
            if plan.waiting[job.audioKey]?.contains(where: { items.contains($0.id) }) == true { return true }
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
        guard !plan.jobs.isEmpty, !context.remoteCacheHealth.isUnavailable else { return }
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
        let leaving = cacheLedger.leavesAudioInCache
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
        cacheLedger.spotChecks = checks
        traffic.downloadedBytes += bytes
        if mismatches > 5 {
            progress(
                .diagnostic(
                    .warning(
                        "\(mismatches - 5) more items had entries or blobs in the remote cache that were rejected; they are synthesized here"
                    )))
        }
        if let failure { try context.cacheFailed(failure) }
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
        guard !cacheLedger.spotChecks.isEmpty, let name = recipe.cache?.name else { return }
        let made = try manifest.objects(withKeys: Array(cacheLedger.spotChecks.keys))
        for (audioKey, check) in cacheLedger.spotChecks.sorted(by: { $0.key < $1.key }) {
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
                cacheLedger.uploadedKeys.append(audioKey)
            }
        }
        cacheLedger.spotChecks.removeAll()
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
            cacheLedger.uploadedKeys.append(job.audioKey)
            if download.remote != nil {
                traffic.leftInCache += 1
                traffic.leftInCacheBytes += download.audio.bytes
            }
        }
    }

    /// Runs `body` with a session on `remote`, adding what it moved to this stage's traffic.
    mutating func withCache<Result>(
        _ remote: RemoteCache, _ body: (inout CacheSession) async throws -> Result
    ) async throws -> Result {
        var session = context.cacheSession(remote)
        defer { traffic = traffic + session.traffic }
        return try await body(&session)
    }

    /// Starts uploading in the background (a writable cache that has not failed).
    mutating func startUploads(to cache: SpeechCache) {
        guard let settings = recipe.cache, !settings.readOnly, !context.remoteCacheHealth.isUnavailable else { return }
        cacheLedger.uploader = CacheUploader(cache: cache)
    }

    /// Queues the synthesized items the cache does not hold yet (this build's and earlier ones'),
    /// waits for the uploads and records them; a stop abandons what is in flight.
    mutating func finishUploads() async throws {
        guard let uploader = cacheLedger.uploader, let settings = recipe.cache else { return }
        cacheLedger.uploader = nil
        // Downloaded items are in the cache already: recorded first, so they are not queued again below.
        try manifest.recordUploads(cacheLedger.uploadedKeys, cache: settings.name)
        cacheLedger.uploadedKeys.removeAll()
        if !cancellation.isCancelled && !context.remoteCacheHealth.isUnavailable {
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
        if let failure = outcome.failure, !cancellation.isCancelled { try context.cacheFailed(failure) }
    }
}
