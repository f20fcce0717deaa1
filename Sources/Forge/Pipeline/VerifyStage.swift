/// Transcribes the audio back and scores it against the text, once every item is done; chunks
/// another machine verified from the same audio bytes come from the remote cache. Takes the book
/// as the timeline stage laid it out (nil when the export made items again: it is laid out anew).
struct VerifyStage: PipelineStage {
    let settings: VerifySettings
    /// The synthesis worker's launch, for items whose audio the remote cache cannot give back.
    let launch: WorkerPool.Launch

    func run(_ book: BookTimeline?, in context: BuildContext) async throws -> VerificationOutcome {
        context.progress(.phase("verify"))
        var traffic = CacheTraffic()
        var synthesized = 0
        // Nil when items were made again (their audio could not be fetched): they lay their chapters
        // out anew, so the plan is made again from them, once (the second pass fetches nothing).
        var report = try await verify(book, in: context, traffic: &traffic, synthesized: &synthesized)
        if report == nil { report = try await verify(nil, in: context, traffic: &traffic, synthesized: &synthesized) }
        guard let report else {
            throw PipelineError.verificationUnavailable(
                reason: "the audio of the items to transcribe could not be fetched or made")
        }
        if !report.available && settings.required {
            throw PipelineError.verificationUnavailable(reason: report.unavailableReason ?? "unknown")
        }
        return VerificationOutcome(report: report, traffic: traffic, synthesizedItems: synthesized)
    }

    private func verify(
        _ book: BookTimeline?, in context: BuildContext, traffic: inout CacheTraffic, synthesized: inout Int
    ) async throws -> VerifyReport? {
        let progress = context.progress
        let verification = VerificationRun(
            outputDirectory: context.store.root, settings: settings, pauses: context.recipe.exports,
            language: context.recipe.language)
        let report: VerifyReport
        switch try verification.plan(using: context.manifest, book: book) {
        case .unavailable(let unavailable):
            report = unavailable
        case .ready(var plan):
            let (manifest, cancellation, unscreened) = (context.manifest, context.cancellation, plan)
            plan = try await BlockingThreads.run {
                var screened = unscreened
                try verification.screen(&screened, using: manifest, cancellation: cancellation)
                return screened
            }
            var cache = context.speechCache.map { context.cacheSession($0.remote) }
            defer { if let cache { traffic = traffic + cache.traffic } }
            let keys = try cache?.chunkActionKeys(plan) ?? [:]
            try await cache?.downloadChunks(
                &plan, keys: keys, maxWordErrorRate: settings.maxWordErrorRate, build: context.buildID)
            let remoteAudio = try context.manifest.remoteObjectKeys()
            if !remoteAudio.isEmpty {
                let fetched = try await context.fetchRemoteAudio(
                    Self.audioKeys(of: plan.work, timelines: plan.timelines).intersection(remoteAudio),
                    for: "verification", launch: launch)
                traffic = traffic + fetched.traffic
                synthesized += fetched.synthesized
                if fetched.synthesized > 0 { return nil }
            }
            let transcribed = plan.work
            let (build, ready) = (context.buildID, plan)
            report = try await BlockingThreads.run {
                var report = try verification.transcribe(
                    ready, using: manifest, build: build, cancellation: cancellation
                ) { chunk in progress(.verified(chunk)) }
                try verification.answerFlags(&report, timelines: ready.timelines, using: manifest)
                return report
            }
            try await cache?.uploadChunks(transcribed, plan: plan, keys: keys)
        }
        return report
    }

    /// The audio keys of the items on the stretches of `chunks`.
    static func audioKeys(of chunks: [VerificationRun.Chunk], timelines: [ChapterTimeline]) -> Set<String> {
        var keys = Set<String>()
        for chunk in chunks {
            for item in timelines[chunk.timeline].items(overlappingMs: chunk.startMs..<chunk.endMs) {
                if let key = item.record.audioKey { keys.insert(key) }
            }
        }
        return keys
    }
}
