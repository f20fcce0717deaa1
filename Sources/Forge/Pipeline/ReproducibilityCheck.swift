import Foundation

/// `--check-reproducible`: finished items synthesized again with the build's workers into a
/// scratch store beside the store, their audio compared with the store's by digest.
struct ReproducibilityCheck {
    let context: BuildContext
    let launch: WorkerPool.Launch

    private var recipe: Recipe { context.recipe }
    private var manifest: Manifest { context.manifest }
    private var store: ObjectStore { context.store }
    private var cancellation: CancellationFlag { context.cancellation }

    /// The items `--check-reproducible` makes again: all, or `count` chosen by the digest of
    /// their ids (the same choice on every machine, spread over the book).
    func itemsToCheck(_ count: Int?) throws -> [ItemRecord] {
        let done = try manifest.items().filter { $0.status == .done && $0.audioKey != nil }
        guard let count, count < done.count else { return done }
        return Array(done.sorted { ContentHash.sha256Hex($0.id) < ContentHash.sha256Hex($1.id) }.prefix(count))
    }

    /// Synthesizes `count` finished items (all when nil; a speech service's are left out) again,
    /// with the build's workers, into a scratch store beside the store (removed after), and
    /// compares their audio with the store's.
    func run(count: Int?) async throws -> (checked: Int, mismatches: [ReproducibilityMismatch]) {
        var jobs: [SpeechJob] = []
        var seen = Set<String>()
        for item in try itemsToCheck(count) {
            guard let audioKey = item.audioKey, seen.insert(audioKey).inserted else { continue }
            let voice = recipe.fallbackVoice.flatMap { item.voice == $0.uri ? $0 : nil }
            let speech = recipe.speech(
                text: item.text, character: item.character, engineVersions: context.engineVersions, voice: voice)
            // An item the recipe would now make differently is the build's to remake, not to check;
            // a speech service's would be paid for again, and neural voices differ run to run.
            guard speech.audioKey == audioKey, recipe.services[speech.voice.engine] == nil else { continue }
            jobs.append(speech.job(itemID: item.id, recipe: recipe))
        }
        guard !jobs.isEmpty else { return (0, []) }
        let stored = try manifest.objects(withKeys: jobs.map(\.audioKey))
        context.progress(.phase("check-reproducible"))

        let scratchName = "objects/tmp/check-\(getpid())"
        let scratchRoot = try store.owned.makeDirectory(scratchName)
        defer { try? FileManager.default.removeItem(at: scratchRoot) }
        let scratch = ObjectStore(root: scratchRoot)
        try scratch.prepare()
        let root =
            context.pin.map { URL(fileURLWithPath: $0.pinnedPath).appendingPathComponent(scratchName) } ?? scratchRoot
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
