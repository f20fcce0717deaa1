import Foundation

extension StageWork {
    /// Forced alignment for every spoken item that needs it (all of them with the recipe's
    /// `alignment.method` "forced"; otherwise those whose audio has no synthesizer events or
    /// whose engine reported no word timings).
    /// An alignment already in the store for the same audio, text and aligner is reused.
    mutating func forceAlign(threads: Int) async throws {
        let model = RecognizerModel.standard
        let identity = ForcedAligner.identity(model: model)
        let (planned, reusable, alreadyDone) = try forcedAlignmentPlan(identity: identity)
        var jobs = planned
        guard !jobs.isEmpty || !reusable.isEmpty else { return }
        tally.finished = 0
        tally.toFinish = jobs.count + reusable.count
        progress(.planned(upToDate: alreadyDone, toSynthesize: 0, toReuse: 0, toAlign: tally.toFinish))
        let words = try manifest.allWords()

        jobs += try takeStoredAlignments(reusable, words: words)
        for index in jobs.indices {
            let item = jobs[index].item
            // With a lexicon the recognizer listens for what was said: each word's respelling or phonemes.
            let engine = item.voice.map { String($0.prefix { $0 != ":" }) } ?? SpeechEngines.builtInName
            let phonemes = SpeechEngines.capabilities(ofEngine: engine).contains(.phonemeInput)
            jobs[index].words =
                recipe.lexicon.isEmpty
                ? words[item.id] ?? [] : recipe.lexicon.render(item.text, phonemes: phonemes).words
        }
        guard !jobs.isEmpty, !stopRequested() else { return try save() }

        // Alignments another machine made of the same audio bytes come from the remote cache.
        let remote = context.speechCache?.remote
        let remoteKeys = remote == nil ? [:] : try alignmentActionKeys(jobs)
        if let remote { jobs = try await downloadAlignments(jobs, keys: remoteKeys, from: remote) }
        guard !jobs.isEmpty, !stopRequested() else { return try save() }
        var aligned: [(key: String, document: [UInt8])] = []

        let outcomes = ForcedAlignmentPool.run(
            jobs, store: store, threads: threads, model: model,
            language: recipe.voice.capabilities.contains(.languageVoices) ? recipe.voice.id : recipe.language,
            cancellation: cancellation)
        for await outcome in outcomes {
            let item = outcome.job.item
            switch outcome.result {
            case .success(let document):
                let object = try store.store(
                    key: outcome.job.alignmentKey, fileExtension: "json", role: .alignment,
                    mimeType: "application/json",
                    data: document.encoded())
                try recordAlignment(document, of: item, key: outcome.job.alignmentKey, object: object)
                if let actionKey = remoteKeys[outcome.job.alignmentKey] {
                    aligned.append((actionKey, document.encoded()))
                }
            case .failure(let error):
                let message = "forced alignment failed: \(ErrorReason.message(error))"
                try record(
                    [.failed(itemID: item.id, error: message)], itemID: item.id, ordinal: item.ordinal,
                    outcome: .failed, error: message)
            }
            _ = stopRequested()
        }
        try save()
        if let remote {
            let entries = aligned.map { ($0.key, Data($0.document)) }
            traffic.uploadedAlignments += try await withCache(remote) { try await $0.putEntries(entries) }
        }
    }

    /// Records an item's forced alignment, its object stored.
    private mutating func recordAlignment(
        _ document: AlignmentDocument, of item: ItemRecord, key: String, object: StoredObject
    ) throws {
        try record(
            [
                .aligned(
                    itemID: item.id, alignmentKey: key, source: .forced, timings: document.alignment.timings,
                    confidences: document.alignment.confidences, object: object)
            ],
            itemID: item.id, ordinal: item.ordinal, outcome: .aligned)
    }

    /// Records the alignments the store already holds for `reusable` items; returns jobs for those
    /// whose object is unreadable or of other words (the bad object removed, to be made again).
    private mutating func takeStoredAlignments(
        _ reusable: [(item: ItemRecord, key: String)], words: [String: [WordToken]]
    ) throws -> [ForcedAlignmentJob] {
        var jobs: [ForcedAlignmentJob] = []
        for entry in reusable where !stopRequested() {
            let path = ObjectStore.relativePath(key: entry.key, fileExtension: "json")
            if let data = try? store.read(relativePath: path), let document = AlignmentDocument.decode(data),
                document.alignment.timings.count == (words[entry.item.id]?.count ?? -1)
            {
                let object = try store.describe(
                    key: entry.key, relativePath: path, role: .alignment, mimeType: "application/json", durationMs: nil,
                    sampleRate: nil)
                try recordAlignment(document, of: entry.item, key: entry.key, object: object)
            } else {
                unlink(store.url(forRelativePath: path).path)
                let audioPath = ObjectStore.relativePath(
                    key: entry.item.audioKey!, fileExtension: recipe.audio.format.fileExtension)
                jobs.append(
                    ForcedAlignmentJob(item: entry.item, words: [], audioPath: audioPath, alignmentKey: entry.key))
            }
        }
        return jobs
    }

    /// The spoken items forced alignment has to place: jobs to align, alignments the store already
    /// holds for the same audio, text and aligner, and how many items are already done.
    private func forcedAlignmentPlan(
        identity: String
    ) throws -> (jobs: [ForcedAlignmentJob], reusable: [(item: ItemRecord, key: String)], alreadyDone: Int) {
        let items = try manifest.items()
        var jobs: [ForcedAlignmentJob] = []
        var reusable: [(item: ItemRecord, key: String)] = []
        var alreadyDone = 0
        for item in items where item.status == .spoken || item.status == .done {
            guard let audioKey = item.audioKey else { continue }
            // Items still only spoken here have no engine timings (a command engine that gave none).
            guard recipe.alignment.method == .forced || item.eventsKey == nil || item.status == .spoken else {
                continue
            }
            let key = ObjectKey.forcedAlignment(audioKey: audioKey, text: item.text, aligner: identity)
            if item.status == .done && item.alignmentKey == key {
                alreadyDone += 1
            } else if store.contains(relativePath: ObjectStore.relativePath(key: key, fileExtension: "json")) {
                reusable.append((item, key))
            } else {
                let audioPath = ObjectStore.relativePath(
                    key: audioKey, fileExtension: recipe.audio.format.fileExtension)
                jobs.append(ForcedAlignmentJob(item: item, words: [], audioPath: audioPath, alignmentKey: key))
            }
        }
        return (jobs, reusable, alreadyDone)
    }

    /// Where each job's alignment is filed in the remote cache: its key (audio key, text, aligner)
    /// and the SHA-256 of the audio it was heard from.
    func alignmentActionKeys(_ jobs: [ForcedAlignmentJob]) throws -> [String: String] {
        let objects = try manifest.objects(withKeys: jobs.compactMap(\.item.audioKey))
        var keys: [String: String] = [:]
        for job in jobs {
            guard let digest = objects[job.item.audioKey ?? ""]?.sha256 else { continue }
            keys[job.alignmentKey] = ObjectKey.digest([
                "cache": "forge-forced-alignment", "version": "1", "alignment": job.alignmentKey, "audio": digest,
            ])
        }
        return keys
    }

    /// Records the alignments the remote cache holds (their words must match the item's); returns the jobs left to align here.
    mutating func downloadAlignments(_ jobs: [ForcedAlignmentJob], keys: [String: String], from cache: RemoteCache)
        async throws -> [ForcedAlignmentJob]
    {
        let found = try await withCache(cache) { try await $0.entries(jobs.compactMap { keys[$0.alignmentKey] }) }
        var remaining: [ForcedAlignmentJob] = []
        for job in jobs {
            guard let data = keys[job.alignmentKey].flatMap({ found[$0] }),
                let document = AlignmentDocument.decode(data),
                document.alignment.timings.count == job.words.count
            else {
                remaining.append(job)
                continue
            }
            let object = try store.store(
                key: job.alignmentKey, fileExtension: "json", role: .alignment, mimeType: "application/json",
                data: document.encoded())
            try recordAlignment(document, of: job.item, key: job.alignmentKey, object: object)
            traffic.downloadedAlignments += 1
        }
        return remaining
    }
}
