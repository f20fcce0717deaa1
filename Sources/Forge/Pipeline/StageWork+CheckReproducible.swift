import Foundation

extension StageWork {
    /// An item whose audio came out other bytes when it was made again.
    package struct ReproducibilityMismatch: Sendable, Equatable {
        package var itemID: String
        package var audioKey: String
        /// The store's digest, and the one made again (nil when making it again failed).
        package var stored: String
        package var remade: String?
        /// What the audio key names: voice URI and engine version.
        package var voice: String
        package var engineVersion: String
        /// Why making it again failed, when it did.
        package var failure: String?

        /// The mismatch in words, naming what the item's bytes depended on.
        package var message: String {
            let found = remade.map { "\($0.prefix(12))…" } ?? "nothing (\(failure ?? "it failed"))"
            return
                "item \(itemID): made again it has audio \(found), the store has \(stored.prefix(12))…; its key \(audioKey.prefix(12))… names the voice \(voice), engine version \(engineVersion), the item's text and the audio settings"
        }
    }

    /// The items `--check-reproducible` makes again: all, or `count` chosen by the digest of
    /// their ids (the same choice on every machine, spread over the book).
    func itemsToCheck(_ count: Int?) throws -> [ItemRecord] {
        let done = try manifest.items().filter { $0.status == .done && $0.audioKey != nil }
        guard let count, count < done.count else { return done }
        return Array(done.sorted { ContentHash.sha256Hex($0.id) < ContentHash.sha256Hex($1.id) }.prefix(count))
    }

    /// Synthesizes `count` finished items (all when nil; a speech service's are left out) again, with the build's workers, into a
    /// scratch store beside the store (removed after), and compares their audio with the store's.
    mutating func checkReproducible(count: Int?, launch: WorkerPool.Launch) async throws -> (
        checked: Int, mismatches: [ReproducibilityMismatch]
    ) {
        var jobs: [SpeechJob] = []
        var seen = Set<String>()
        for item in try itemsToCheck(count) {
            guard let audioKey = item.audioKey, seen.insert(audioKey).inserted else { continue }
            let voice = recipe.fallbackVoice.flatMap { item.voice == $0.uri ? $0 : nil }
            let speech = recipe.speech(
                text: item.text, character: item.character, engineVersions: engineVersions, voice: voice)
            // An item the recipe would now make differently is the build's to remake, not to check;
            // a speech service's would be paid for again, and neural voices differ run to run.
            guard speech.audioKey == audioKey, recipe.services[speech.voice.engine] == nil else { continue }
            jobs.append(speech.job(itemID: item.id, recipe: recipe))
        }
        guard !jobs.isEmpty else { return (0, []) }
        let stored = try manifest.objects(withKeys: jobs.map(\.audioKey))
        progress(.phase("check-reproducible"))

        let scratchName = "objects/tmp/check-\(getpid())"
        let scratchRoot = try store.owned.makeDirectory(scratchName)
        defer { try? FileManager.default.removeItem(at: scratchRoot) }
        let scratch = ObjectStore(root: scratchRoot)
        try scratch.prepare()
        let root = pin.map { URL(fileURLWithPath: $0.pinnedPath).appendingPathComponent(scratchName) } ?? scratchRoot
        let pool = WorkerPool(launch: launch.storing(at: root.path))
        do {
            let result = try await remake(jobs, stored: stored, pool: pool, scratch: scratch)
            await pool.shutdown()
            return result
        } catch {
            await pool.shutdown()
            throw error
        }
    }

    private func remake(
        _ jobs: [SpeechJob], stored: [String: StoredObject], pool: WorkerPool, scratch: ObjectStore
    ) async throws -> (checked: Int, mismatches: [ReproducibilityMismatch]) {
        var pending = jobs[...]
        var inFlight: [Int: SpeechJob] = [:]
        var mismatches: [ReproducibilityMismatch] = []
        var checked = 0
        let workers = max(1, min(recipe.build.jobs, jobs.count))
        func dispatch(_ worker: Int) async {
            guard !cancellation.isCancelled, let job = pending.popFirst() else { return }
            if await pool.send(job, to: worker) { inFlight[worker] = job }
        }
        for worker in 0..<workers {
            try await pool.start(worker)
            await dispatch(worker)
        }
        for await message in pool.messages {
            switch message {
            case .started:
                continue
            case .result(let worker, let result):
                guard let job = inFlight.removeValue(forKey: worker) else { continue }
                // Compared by digest, then gone: a stop never waits for a big scratch store to be removed.
                for object in [result.audio, result.events].compactMap({ $0 }) {
                    unlink(scratch.url(forRelativePath: object.path).path)
                }
                checked += 1
                let expected = stored[job.audioKey]?.sha256 ?? ""
                if result.audio?.sha256 != expected {
                    mismatches.append(
                        ReproducibilityMismatch(
                            itemID: job.itemID, audioKey: job.audioKey, stored: expected, remade: result.audio?.sha256,
                            voice: job.voice.uri, engineVersion: job.engineVersion, failure: result.error))
                }
                await dispatch(worker)
            case .exited(let worker, let detail):
                if let job = inFlight.removeValue(forKey: worker) {
                    checked += 1
                    mismatches.append(
                        ReproducibilityMismatch(
                            itemID: job.itemID, audioKey: job.audioKey, stored: stored[job.audioKey]?.sha256 ?? "",
                            remade: nil,
                            voice: job.voice.uri, engineVersion: job.engineVersion,
                            failure: "its worker exited: \(detail)"))
                }
                if !pending.isEmpty && !cancellation.isCancelled {
                    try await pool.start(worker)
                    await dispatch(worker)
                }
            }
            if inFlight.isEmpty && (pending.isEmpty || cancellation.isCancelled) { break }
        }
        return (checked, mismatches)
    }
}
