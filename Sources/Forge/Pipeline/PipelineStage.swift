/// One stage of a build, run by ``BuildPipeline`` in order against the build in progress
/// (``StageRun``: the recipe, the store, the manifest and what earlier stages did).
///
/// A stage decides from the run whether it has work (a stopped build skips what is left; export
/// and verify wait for every item to be done), does it, and records what it did on the run. The
/// pipeline, not the stage, opens and closes the build's record in the manifest, so a stage that
/// throws still leaves a build row marked failed. A new stage (mastering, a remote cache) plugs in
/// as one more type in ``BuildPipeline/stages(split:)``.
protocol PipelineStage {
    /// Whether the stage has work in this run.
    func applies(to run: StageRun) throws -> Bool
    func run(_ run: inout StageRun) async throws
}

/// Records the split of the sources in the manifest: chapters, items and their words.
struct SplitStage: PipelineStage {
    let result: SplitResult

    func applies(to run: StageRun) -> Bool { true }

    func run(_ run: inout StageRun) throws {
        try run.record(result)
    }
}

/// Synthesizes missing audio in worker processes, reuses what the store has, and (with
/// `alignByEvents`) places every word from the engine's events.
struct SpeakStage: PipelineStage {
    let speak: Bool
    let alignByEvents: Bool
    let launch: WorkerPool.Launch

    func applies(to run: StageRun) -> Bool { !run.cancelled }

    func run(_ run: inout StageRun) async throws {
        try await run.speakAndAlign(speak: speak, align: alignByEvents, launch: launch)
    }
}

/// Places the words of items whose engine gave no timings, with pocketsphinx.
struct ForcedAlignStage: PipelineStage {
    let threads: Int

    func applies(to run: StageRun) -> Bool { !run.cancelled }

    func run(_ run: inout StageRun) async throws {
        try await run.forceAlign(threads: threads)
    }
}

/// Records, once every item is done, each item's place on its chapter's timeline and its
/// sentences (for apps reading the manifest beside the exported chapter audio).
struct TimelineStage: PipelineStage {
    func applies(to run: StageRun) throws -> Bool {
        guard !run.cancellation.isCancelled else { return false }
        let counts = try run.manifest.statusCounts()
        return counts.items > 0 && counts.done == counts.items
    }

    func run(_ run: inout StageRun) throws {
        try TimelineRecorder(store: run.store, manifest: run.manifest, settings: run.recipe.exports)
            .record(touched: run.touchedItems, cancellation: run.cancellation)
    }
}

/// Writes the recipe's exports once every item is done; a stop leaves every written file whole
/// and the next build exports again.
struct ExportStage: PipelineStage {
    let settings: ExportSettings
    /// The synthesis worker's launch, for the ACX credits (spoken before the export, as items are).
    let launch: WorkerPool.Launch

    func applies(to run: StageRun) throws -> Bool {
        guard !settings.formats.isEmpty, !run.cancellation.isCancelled else { return false }
        let counts = try run.manifest.statusCounts()
        return counts.done == counts.items
    }

    func run(_ run: inout StageRun) async throws {
        run.progress(.phase("export"))
        let manifest = run.manifest
        do {
            let settings = try await CreditSpeech(outputDirectory: run.store.root, launch: launch, cancellation: run.cancellation)
                .prepare(settings, manifest: manifest)
            let exporter = Exporter(outputDirectory: run.store.root, settings: settings, cancellation: run.cancellation)
            run.exported = try await BlockingThreads.run { try exporter.exportIfChanged(using: manifest) }
        } catch ExportError.cancelled {
            // Every file written is whole; the next build exports again (the stamp was not written).
        }
    }
}

/// Transcribes the audio back and scores it against the text, once every item is done.
struct VerifyStage: PipelineStage {
    let settings: VerifySettings

    func applies(to run: StageRun) throws -> Bool {
        guard !run.cancellation.isCancelled else { return false }
        let counts = try run.manifest.statusCounts()
        return counts.done == counts.items
    }

    func run(_ run: inout StageRun) async throws {
        run.progress(.phase("verify"))
        let progress = run.progress
        let verification = VerificationRun(
            outputDirectory: run.store.root, settings: settings, pauses: run.recipe.exports, language: run.recipe.language)
        let report: VerifyReport
        switch try verification.plan(using: run.manifest) {
        case let .unavailable(unavailable):
            report = unavailable
        case var .ready(plan):
            let (manifest, cancellation, unscreened) = (run.manifest, run.cancellation, plan)
            plan = try await BlockingThreads.run {
                var screened = unscreened
                try verification.screen(&screened, using: manifest, cancellation: cancellation)
                return screened
            }
            // Chunks another machine verified from the same audio bytes come from the remote cache.
            let remote = run.speechCache?.remote
            let keys = remote == nil ? [:] : try run.chunkActionKeys(plan)
            if let remote { try await run.downloadChunks(&plan, keys: keys, from: remote, maxWordErrorRate: settings.maxWordErrorRate) }
            let transcribed = plan.work
            let (build, ready) = (run.buildID, plan)
            report = try await BlockingThreads.run {
                try verification.transcribe(ready, using: manifest, build: build, cancellation: cancellation) { chunk in progress(.verified(chunk)) }
            }
            if let remote { try await run.uploadChunks(transcribed, plan: plan, keys: keys, to: remote) }
        }
        if !report.available && settings.required {
            throw PipelineError.verificationUnavailable(reason: report.unavailableReason ?? "unknown")
        }
        run.verification = report
    }
}
