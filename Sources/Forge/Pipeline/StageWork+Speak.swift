import Foundation
import Synchronization

extension StageWork {
    /// What the speak and align stages have to do for the manifest's items.
    struct SpeakPlan {
        var jobs: [SpeechJob] = []
        /// Items waiting for each job's audio key (identical text and voice share one object).
        var waiting: [String: [ItemRecord]] = [:]
        var reusable: [(item: ItemRecord, speech: ItemSpeech)] = []
        var alignOnly: [ItemRecord] = []
        var upToDate = 0

        var itemsToSynthesize: Int { waiting.values.reduce(0) { $0 + $1.count } }
    }

    /// `remote`: audio keys whose bytes are in the remote cache only, which count as stored.
    func plan(_ items: [ItemRecord], speak: Bool, align: Bool, remote: Set<String> = []) -> SpeakPlan {
        var plan = SpeakPlan()
        for (item, found) in zip(items, assessed(items, remote: remote)) {
            let (speech, hasObjects, alignmentKey) = found
            if item.audioKey == speech.audioKey, hasObjects, item.status == .done || item.status == .spoken {
                let aligned =
                    item.status == .done
                    && (item.alignmentKey == alignmentKey
                        // Timings from forced alignment of an engine that gave none are the align stage's to keep current.
                        || (!speech.voice.capabilities.contains(.wordTimings) && item.alignmentSource == .forced))
                if aligned || !align { plan.upToDate += 1 } else { plan.alignOnly.append(item) }
                continue
            }
            guard speak else { continue }
            if hasObjects {
                plan.reusable.append((item, speech))
                continue
            }
            if plan.waiting[speech.audioKey] == nil { plan.jobs.append(speech.job(itemID: item.id, recipe: recipe)) }
            plan.waiting[speech.audioKey, default: []].append(item)
        }
        return plan
    }

    /// Each item's speech as the recipe makes it now, whether the store holds its objects, and (for
    /// an item done with that audio) the key of its timings, worked out on every core: each is a
    /// hash of canonical JSON or a `stat`, tens of thousands of them in a long book's plan.
    private func assessed(_ items: [ItemRecord], remote: Set<String>)
        -> [(speech: ItemSpeech, hasObjects: Bool, alignmentKey: String?)]
    {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, items.count / 1000))
        let results = Mutex(
            [[(speech: ItemSpeech, hasObjects: Bool, alignmentKey: String?)]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let presence = ObjectPresence(store: store)
            let found = items[(items.count * part / parts)..<(items.count * (part + 1) / parts)].map { item in
                var speech = recipe.speech(
                    text: item.text, character: item.character, engineVersions: context.engineVersions)
                // An item the fallback voice made stays as it is: its primary engine failed on it.
                if let fallback = recipe.fallbackVoice, item.voice == fallback.uri, item.audioKey != speech.audioKey {
                    let made = recipe.speech(
                        text: item.text, character: item.character, engineVersions: context.engineVersions,
                        voice: fallback)
                    if item.audioKey == made.audioKey { speech = made }
                }
                let isCurrent = item.status == .done && item.audioKey == speech.audioKey
                return (
                    speech, hasObjects(speech, presence, remote: remote),
                    isCurrent ? ObjectKey.alignment(eventsKey: speech.eventsKey, text: item.text) : nil
                )
            }
            results.withLock { $0[part] = found }
        }
        return results.withLock { $0.flatMap { $0 } }
    }

    func hasObjects(_ speech: ItemSpeech, _ presence: ObjectPresence, remote: Set<String> = []) -> Bool {
        (remote.contains(speech.audioKey)
            || presence.contains(
                ObjectStore.relativePath(key: speech.audioKey, fileExtension: recipe.audio.format.fileExtension)))
            && presence.contains(ObjectStore.relativePath(key: speech.eventsKey, fileExtension: "json"))
    }

    /// Synthesizes what is missing, reuses what the store already has, and (with `align`)
    /// computes word timings, committing them in batches (`saveInterval`).
    mutating func speakAndAlign(speak: Bool, align: Bool, launch: WorkerPool.Launch) async throws {
        let items = try manifest.items()
        guard !items.isEmpty else { throw PipelineError.nothingSplit(outputDirectory: store.root.path) }
        tally.itemsTotal = items.count
        let remote = try manifest.remoteObjectKeys()
        var plan = plan(items, speak: speak, align: align, remote: cacheLedger.leavesAudioInCache ? remote : [])
        // Audio left in the cache by an earlier build, which this one downloads (or makes): no longer remote.
        if !remote.isEmpty && !cacheLedger.leavesAudioInCache {
            try manifest.forgetRemote(plan.jobs.map(\.audioKey).filter(remote.contains))
        }
        if let assignment = context.shardAssignment {
            tally.leftToOtherShards = restrict(&plan, toItems: assignment.items(of: items))
        }
        tally.upToDate = plan.upToDate
        tally.toFinish = plan.alignOnly.count + plan.reusable.count + plan.itemsToSynthesize
        progress(
            .planned(
                upToDate: plan.upToDate, toSynthesize: plan.itemsToSynthesize, toReuse: plan.reusable.count,
                toAlign: plan.alignOnly.count))
        // A chapter's words in one query pays when many items are to be aligned; for an edit's
        // few, each item's are read when it is (``alignment(for:eventsKey:document:)``).
        wordReader.byChapter = align && tally.toFinish > 0 && tally.toFinish * 20 > items.count

        for item in plan.alignOnly where !stopRequested() {
            do {
                guard let eventsKey = item.eventsKey else { continue }
                let document = try readEvents(key: eventsKey)
                guard let update = try alignment(for: item, eventsKey: eventsKey, document: document) else { continue }
                try record([update], itemID: item.id, ordinal: item.ordinal, outcome: .aligned)
            } catch let error as StoreError {
                throw error
            } catch {
                try record(
                    [.failed(itemID: item.id, error: "alignment failed: \(ErrorReason.message(error))")],
                    itemID: item.id, ordinal: item.ordinal, outcome: .failed, error: ErrorReason.message(error))
            }
        }
        // Stored objects that turn out unreadable are removed and their items synthesized again.
        for entry in try reuse(plan.reusable, align: align) {
            if plan.waiting[entry.speech.audioKey] == nil {
                plan.jobs.append(entry.speech.job(itemID: entry.item.id, recipe: recipe))
            }
            plan.waiting[entry.speech.audioKey, default: []].append(entry.item)
        }
        if let speechCache = context.speechCache, speak {
            if !stopRequested() { try await download(&plan, align: align, from: speechCache) }
            startUploads(to: speechCache)
        }
        if !plan.jobs.isEmpty && !stopRequested() {
            try await synthesize(plan, align: align, launch: launch)
        }
        try save()
        try reportSpotChecks()
        try await finishUploads()
    }

    /// Notes a requested stop once, and says whether to stop dispatching.
    mutating func stopRequested() -> Bool {
        if !tally.cancelled && cancellation.isCancelled {
            tally.cancelled = true
            progress(.cancelling)
        }
        return tally.cancelled
    }

    /// Records items whose objects are already in the store; returns those whose stored objects
    /// could not be read (now removed), to be synthesized again.
    private mutating func reuse(
        _ reusable: [(item: ItemRecord, speech: ItemSpeech)], align: Bool
    ) throws -> [(item: ItemRecord, speech: ItemSpeech)] {
        guard !reusable.isEmpty else { return [] }
        var unreadable: [(item: ItemRecord, speech: ItemSpeech)] = []
        let known = try manifest.objects(withKeys: reusable.flatMap { [$0.speech.audioKey, $0.speech.eventsKey] })
        for entry in reusable where !stopRequested() {
            let item = entry.item
            let (audioKey, eventsKey) = (entry.speech.audioKey, entry.speech.eventsKey)
            do {
                let document = try readEvents(key: eventsKey)
                let audio =
                    try known[audioKey]
                    ?? store.describe(
                        key: audioKey,
                        relativePath: ObjectStore.relativePath(
                            key: audioKey, fileExtension: recipe.audio.format.fileExtension),
                        role: .audio, mimeType: recipe.audio.format.mimeType, durationMs: document.durationMs,
                        sampleRate: document.sampleRate)
                let events =
                    try known[eventsKey]
                    ?? store.describe(
                        key: eventsKey, relativePath: ObjectStore.relativePath(key: eventsKey, fileExtension: "json"),
                        role: .events, mimeType: "application/json", durationMs: nil, sampleRate: nil)
                var updates: [ItemUpdate] = [
                    .spoken(itemID: item.id, audio: audio, events: events, voice: entry.speech.voice.uri)
                ]
                if align, let update = try alignment(for: item, eventsKey: eventsKey, document: document) {
                    updates.append(update)
                }
                try record(updates, itemID: item.id, ordinal: item.ordinal, outcome: .reused)
            } catch let error as StoreError {
                throw error
            } catch {
                // A damaged events object (say, a power cut before its data reached the disk) would fail
                // this item on every run; remove the pair so synthesis makes them afresh.
                unlink(store.url(forRelativePath: ObjectStore.relativePath(key: eventsKey, fileExtension: "json")).path)
                unlink(
                    store.url(
                        forRelativePath: ObjectStore.relativePath(
                            key: audioKey, fileExtension: recipe.audio.format.fileExtension)
                    ).path)
                unreadable.append(entry)
            }
        }
        return unreadable
    }

    func readEvents(key: String) throws -> SpeechEventsDocument {
        try SpeechEventsDocument.decode(
            store.read(relativePath: ObjectStore.relativePath(key: key, fileExtension: "json")))
    }

    /// Word timings from the engine's events; nil when the engine gave none (forced alignment places the words).
    mutating func alignment(for item: ItemRecord, eventsKey: String, document: SpeechEventsDocument) throws
        -> ItemUpdate?
    {
        guard document.hasWordTimings else { return nil }
        // With a lexicon the events point into the spoken text; each word's span there stands in for the word.
        let words =
            recipe.lexicon.isEmpty
            ? try wordReader.words(of: item, in: manifest)
            : recipe.lexicon.render(
                item.text, phonemes: SpeechEngines.capabilities(ofEngine: document.engine).contains(.phonemeInput)
            ).words
        let timings = EventAligner.align(words: words, events: document.events, durationMs: document.durationMs)
        return .aligned(
            itemID: item.id, alignmentKey: ObjectKey.alignment(eventsKey: eventsKey, text: item.text),
            source: .synthesizer,
            timings: timings, confidences: nil, object: nil)
    }

    private mutating func synthesize(_ plan: SpeakPlan, align: Bool, launch: WorkerPool.Launch) async throws {
        var plan = plan
        if !recipe.services.isEmpty {
            plan.jobs = try await speakWithServices(plan.jobs, waiting: &plan.waiting, align: align)
            guard !plan.jobs.isEmpty, !stopRequested() else { return }
        }
        let pool = WorkerPool(launch: context.pin.map { launch.storing(at: $0.pinnedPath) } ?? launch)
        do {
            try await synthesize(plan, align: align, pool: pool)
        } catch {
            await pool.shutdown()
            throw error
        }
        await pool.shutdown()
    }

    private mutating func synthesize(_ plan: SpeakPlan, align: Bool, pool: WorkerPool) async throws {
        var scheduler = SynthesisScheduler(jobs: plan.jobs, workers: recipe.build.jobs)
        var waiting = plan.waiting
        for worker in 0..<scheduler.workerCount {
            try await pool.start(worker)
            scheduler.workerStarted(worker)
        }
        func dispatch(_ worker: Int, _ scheduler: inout SynthesisScheduler, stopping: Bool) async {
            while let job = scheduler.nextJob(for: worker, stopping: stopping) {
                guard await pool.send(job, to: worker) else { return }
                scheduler.sent(job, to: worker)
            }
        }
        for worker in scheduler.live.sorted() { await dispatch(worker, &scheduler, stopping: false) }

        for await message in pool.messages {
            let stopping = stopRequested()
            switch message {
            case .started(let worker, let itemID):
                scheduler.started(itemID, on: worker)
            case .result(let worker, let result):
                guard let job = scheduler.finished(result.itemID, on: worker) else { continue }
                if let retry = try finish(job, result: result, waiting: &waiting, align: align) {
                    scheduler.retryFirst(retry)
                }
                await dispatch(worker, &scheduler, stopping: stopping)
            case .exited(let worker, let detail):
                let replace = try scheduler.workerExited(worker, stopping: stopping) { culprit in
                    let error = ErrorReason.message(SpeechError.workerCrashed(item: culprit.itemID, detail: detail))
                    return try finish(
                        culprit, result: SpeechJobResult(itemID: culprit.itemID, error: error), waiting: &waiting,
                        align: align)
                }
                if replace {
                    ForgeLog.notice(
                        "worker \(worker) exited (\(detail)); starting another (restart \(scheduler.restarts) of at most \(2 * scheduler.workerCount))"
                    )
                    try await pool.start(worker)
                    scheduler.workerStarted(worker)
                    await dispatch(worker, &scheduler, stopping: stopping)
                }
            }
            if scheduler.isDone(stopping: stopRequested()) { break }
            if scheduler.isStranded {
                let error = SpeechError.workerUnavailable(
                    "workers kept dying; \(scheduler.queue.count) items were not attempted"
                ).localizedDescription
                for job in scheduler.queue {
                    var noRetry = waiting
                    _ = try finish(
                        job, result: SpeechJobResult(itemID: job.itemID, error: error), waiting: &noRetry, align: align,
                        fallback: false)
                }
                break
            }
        }
    }

    /// Records a job's items as spoken (and aligned), or as failed. A job that failed with a voice
    /// other than the recipe's fallback is retried with the fallback: that job is returned, its
    /// items moved to it in `waiting`.
    mutating func finish(
        _ job: SpeechJob, result: SpeechJobResult, waiting: inout [String: [ItemRecord]], align: Bool,
        fallback: Bool = true
    ) throws -> SpeechJob? {
        let items = waiting.removeValue(forKey: job.audioKey) ?? []
        guard let audio = result.audio, let events = result.events, let document = result.document, result.error == nil
        else {
            var error = result.error ?? "the worker returned no audio"
            // Workers reach the output directory through the lock's descriptor; a person reads its name.
            if let pin = context.pin {
                error = error.replacingOccurrences(of: pin.pinnedPath, with: recipe.outputDirectory.path)
            }
            if fallback, let voice = recipe.fallbackVoice, voice != job.voice, let first = items.first {
                let speech = recipe.speech(
                    text: first.text, character: first.character, engineVersions: context.engineVersions, voice: voice)
                waiting[speech.audioKey, default: []].append(contentsOf: items)
                progress(
                    .diagnostic(
                        .warning(
                            "item \(first.id): \(error); speaking it with the fallback voice \(voice.uri)",
                            item: first.id)))
                return speech.job(itemID: first.id, recipe: recipe)
            }
            for item in items {
                try record(
                    [.failed(itemID: item.id, error: error)], itemID: item.id, ordinal: item.ordinal, outcome: .failed,
                    error: error)
            }
            return nil
        }
        for (position, item) in items.enumerated() {
            var updates: [ItemUpdate] = [.spoken(itemID: item.id, audio: audio, events: events, voice: job.voice.uri)]
            if align, let update = try alignment(for: item, eventsKey: job.eventsKey, document: document) {
                updates.append(update)
            }
            try record(
                updates, itemID: item.id, ordinal: item.ordinal, outcome: position == 0 ? .synthesized : .reused,
                audioMs: document.durationMs)
        }
        // A spot-checked item is the cache's already; it is uploaded only if its bytes turn out other.
        if !items.isEmpty && cacheLedger.spotChecks[job.audioKey] == nil {
            cacheLedger.uploader?.enqueue(Manifest.SharedSpeech(audio: audio, events: events, voice: job.voice.uri))
        }
        return nil
    }
}
