import Foundation

/// Runs a recipe's stages (``PipelineStage``: split, speak, forced alignment, export, verify) against its
/// output directory, and owns the build's record in the manifest from start to finish.
///
/// The orchestrator (this process) is the only writer of the manifest. Synthesis happens in
/// worker processes; finished items are committed every `saveInterval` items, so a crash or
/// Ctrl-C loses at most the items since the last save, and everything saved stays valid.
package struct BuildPipeline: Sendable {
    package var recipe: Recipe
    package var stages: Set<Stage>
    package var workerLaunch: WorkerPool.Launch
    /// Recorded in the build row, so every object can be traced to how it was made.
    package var commandLine: String
    /// Build only this part of the items and share it through the recipe's remote cache (`--shard I/N`).
    package var shard: Shard?
    /// `--check-reproducible`: after the stages, make this many finished items again (all when
    /// the inner value is nil) and compare their audio with the store's.
    package var checkReproducible: Int?? = nil

    package init(
        recipe: Recipe, stages: Set<Stage> = Set(Stage.allCases), workerLaunch: WorkerPool.Launch, commandLine: String
    ) {
        self.recipe = recipe
        self.stages = stages
        self.workerLaunch = workerLaunch
        self.commandLine = commandLine
    }

    /// Checks every voice of the recipe (narrator, cast, fallback) against its engine and returns
    /// each engine's version by name: espeak-ng's always, and a command engine's from its hello
    /// (which needs `allowCommands`). Runs before anything is written.
    package static func engineVersions(of recipe: Recipe) throws -> [String: String] {
        let engines = SpeechEngines(commands: recipe.engines)
        var versions: [String: String] = [:]
        for name in [SpeechEngines.builtInName] + recipe.allVoices.map(\.voice.engine) where versions[name] == nil {
            // A service's version is its settings': nothing is asked of it until there is something to speak.
            if let service = recipe.services[name] {
                versions[name] = service.engineVersion
                continue
            }
            if let settings = recipe.engines[name], !recipe.allowCommands {
                throw CommandEngineError.notAllowed(engine: settings.name, command: settings.command)
            }
            do {
                // A command engine is started once here to learn its version, which is part of every key of its audio.
                versions[name] = try engines.engine(named: name).version
            } catch let error as SpeechError {
                throw PipelineError.engineUnavailable(ErrorReason.message(error))
            }
        }
        for (path, voice) in recipe.allVoices where recipe.services[voice.engine] == nil {
            if let suggestions = try engines.engine(named: voice.engine).suggestionsIfUnknown(voice) {
                throw RecipeError.unknownVoice(
                    file: recipe.file.path, path: path == "voice" ? "voice.id" : path, found: voice.id,
                    suggestions: suggestions)
            }
        }
        return versions
    }

    /// Refuses a service whose key variable the command line did not allow to go to its host:
    /// checked before anything is written, though the key itself is read only when there is
    /// something to speak.
    package static func checkServiceKeys(of recipe: Recipe) throws(SpeechServiceError) {
        for name in Set(recipe.allVoices.map(\.voice.engine)).sorted() {
            guard let settings = recipe.services[name], let variable = settings.keyVariable else { continue }
            if !recipe.serviceKeyGrants.allows(variable, to: settings.host) {
                throw .keyNotAllowed(engine: name, variable: variable, host: settings.host)
            }
        }
    }

    /// The engines the recipe's voices use, narrator's first, each once: what a build row records.
    static func enginesUsed(by recipe: Recipe) -> [String] {
        var seen = Set<String>()
        return recipe.allVoices.map(\.voice.engine).filter { seen.insert($0).inserted }
    }

    /// The message for characters without a voice in the cast.
    package static func uncastWarning(_ characters: [String]) -> String {
        let names =
            characters.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
            + (characters.count > 20 ? " and \(characters.count - 20) more" : "")
        return
            "no voice in the cast for \(names); \(characters.count == 1 ? "it speaks" : "they speak") with the narrator's voice. Add \(characters.count == 1 ? "it" : "them") to \"cast\" to give \(characters.count == 1 ? "it its" : "them their") own."
    }

    /// Runs the selected stages. Throws only when the build cannot run at all; item failures
    /// are reported in the summary.
    package func run(cancellation: CancellationFlag, progress: @escaping @Sendable (ProgressEvent) -> Void) async throws
        -> BuildSummary
    {
        let clock = ContinuousClock.now
        let engineVersions = try Self.engineVersions(of: recipe)
        try Self.checkServiceKeys(of: recipe)
        let engines = Self.enginesUsed(by: recipe)
        // With `verify`, every rebuild re-checks each chunk's audio files (changes behind the
        // store's back), so only recipes without it answer from the fingerprint.
        let fingerprint =
            stages == Set(Stage.allCases) && recipe.verify == nil && shard == nil && checkReproducible == nil
            ? try BuildFingerprint(recipe: recipe, engineVersions: engineVersions, stages: stages) : nil
        if let fingerprint,
            let summary = try upToDate(
                fingerprint, engines: engines, engineVersions: engineVersions, started: clock, progress: progress)
        {
            return summary
        }
        if shard != nil && (recipe.cache == nil || recipe.cache?.readOnly == true) {
            throw PipelineError.shardWithoutCache
        }
        let remote = try recipe.cache.map { settings throws(RemoteCacheError) in try RemoteCache(settings: settings) }
        let split = stages.contains(.split) ? try recipe.splitSources() : nil
        let directory = recipe.outputDirectory
        // From here on a stop winds down and keeps what is finished.
        cancellation.beginKeepingWork()
        let workspace = try OutputWorkspace(directory: directory)
        // The lock is held until the build's record is closed, on every path.
        defer { withExtendedLifetime(workspace) {} }
        let store = workspace.store
        let manifest = workspace.manifest
        let session = try BuildSession.begin(
            buildRecord(engines: engines, engineVersions: engineVersions), in: manifest)
        let buildID = session.buildID
        progress(.started(buildID: buildID, outputDirectory: directory.path))
        let bookWarnings = split.map { warnings(about: $0, progress: progress) } ?? []
        var context = BuildContext(
            recipe: recipe, engineVersions: engineVersions, store: store, manifest: manifest, buildID: buildID,
            cancellation: cancellation, progress: progress, started: clock)
        context.pin = workspace.lock
        context.speechCache = remote.map { SpeechCache(remote: $0, store: store) }
        context.shard = shard
        if let shard, let split {
            let lengths = BuildPlanner.estimatedChapterLengths(split, rate: recipe.voice.rate).map {
                ($0.ordinal, $0.durationMs)
            }
            context.shardAssignment = ShardAssignment(shard: shard, lengths: lengths)
        }
        var results = BuildResults()
        do {
            try await runStages(split: split, in: context, into: &results)
            if let count = checkReproducible, !results.stopped, !cancellation.isCancelled {
                results.reproducibility = try await reproducibilityCheck(count, in: context)
            }
            let counts = try manifest.itemCounts()
            var summary = summary(of: results, counts: counts, in: context)
            summary.warnings = bookWarnings
            let outcome: BuildRecord.Outcome =
                summary.cancelled ? .cancelled : (summary.outcome == .succeeded ? .succeeded : .failed)
            if outcome == .succeeded, let value = try fingerprint?.current(in: manifest, directory: directory) {
                try manifest.recordFingerprint(value, build: buildID)
            }
            try session.finish(results.ending(outcome, total: counts.items))
            return summary
        } catch {
            // The stages that finished before the failure are counted; the one that threw is not.
            session.abandon(results.ending(.failed, total: results.itemsTotal))
            throw error
        }
    }

    /// The book's warnings, each also handed to `progress`: characters the cast gives no voice,
    /// chapters too long or too short for a player's chapter list.
    private func warnings(about split: SplitResult, progress: @Sendable (ProgressEvent) -> Void) -> [Diagnostic] {
        let uncast = recipe.uncastCharacters(split.items.map(\.character))
        if !uncast.isEmpty { progress(.diagnostic(.warning(Self.uncastWarning(uncast), file: recipe.file.path))) }
        let warnings = ChapterLengthCheck(recipeFile: recipe.file.path).warnings(
            BuildPlanner.estimatedChapterLengths(split, rate: recipe.voice.rate), items: split.items)
        for warning in warnings { progress(.diagnostic(warning)) }
        return warnings
    }

    /// Makes `count` finished items again and compares their bytes, warning about each that differs.
    private func reproducibilityCheck(_ count: Int?, in context: BuildContext) async throws
        -> BuildSummary.ReproducibilityCheck
    {
        let (checked, mismatches) = try await ReproducibilityCheck(context: context, launch: workerLaunch).run(
            count: count)
        for mismatch in mismatches.prefix(20) {
            context.progress(.diagnostic(.warning(mismatch.message, item: mismatch.itemID)))
        }
        if mismatches.count > 20 {
            context.progress(.diagnostic(.warning("\(mismatches.count - 20) more items came out other bytes")))
        }
        return .init(checked: checked, differing: mismatches.map(\.itemID))
    }

    /// Runs the selected stages in order, each given what the ones before it returned: split,
    /// speak (synthesis, reuse, downloads, timings from events), forced alignment, and after a
    /// full build of every item the timeline, the exports and verification.
    private func runStages(split: SplitResult?, in context: BuildContext, into results: inout BuildResults) async throws
    {
        func timed<Output>(_ stage: some PipelineStage, _ body: () async throws -> Output) async rethrows -> Output {
            let started = ContinuousClock.now
            defer {
                ForgeLog.info(
                    "\(type(of: stage)) took \(String(format: "%.2f", (ContinuousClock.now - started).seconds)) s")
            }
            return try await body()
        }
        if let split {
            let stage = SplitStage()
            results.split = try await timed(stage) { try stage.run(split, in: context) }
        }
        guard !results.stopped else { return }
        if stages.contains(.speak) || stages.contains(.align) {
            let stage = SpeakStage(
                speak: stages.contains(.speak),
                alignByEvents: stages.contains(.align) && recipe.alignment.method == .auto, launch: workerLaunch)
            results.speech = try await timed(stage) { try await stage.run((), in: context) }
        }
        guard stages.contains(.align), !results.stopped else { return }
        let align = ForcedAlignStage(threads: recipe.build.jobs)
        results.alignment = try await timed(align) { try await align.run((), in: context) }
        // A shard has only its part of the book: it finishes its own chapters (verification, the
        // chapters' encodings) for the assembling build, which lays out, exports and verifies the book.
        if shard != nil {
            let finish = ShardFinishStage()
            results.finishing = try await timed(finish) { try await finish.run((), in: context) }
            return
        }
        guard try everyItemDone(context) else { return }
        let timeline = TimelineStage<BuildContext>(settings: recipe.exports)
        let touched = results.touchedItems
        let book = try await timed(timeline) { try timeline.run(touched, in: context) }
        if !recipe.exports.formats.isEmpty, try everyItemDone(context) {
            let export = ExportStage(settings: recipe.exports, launch: workerLaunch)
            results.exported = try await timed(export) { try await export.run(book, in: context) }
        }
        if let settings = recipe.verify, try everyItemDone(context) {
            let verify = VerifyStage(settings: settings, launch: workerLaunch)
            // Items the export made again (their audio was not to be had) may last otherwise.
            let laidOut = results.exported.synthesizedItems == 0 ? book : nil
            results.verification = try await timed(verify) { try await verify.run(laidOut, in: context) }
        }
    }

    /// Every item is done (and the build not stopped): the condition of the stages after alignment.
    private func everyItemDone(_ context: BuildContext) throws -> Bool {
        guard !context.cancellation.isCancelled else { return false }
        let totals = try context.manifest.itemTotals()
        return totals.items > 0 && totals.done == totals.items
    }

    /// The build's summary, from its stages' results and the manifest's counts after them.
    private func summary(of results: BuildResults, counts: ManifestCounts, in context: BuildContext) -> BuildSummary {
        var summary = BuildSummary(
            buildID: context.buildID, outputDirectory: recipe.outputDirectory.path, itemsTotal: counts.items,
            upToDate: results.speech?.items.upToDate ?? 0,
            synthesized: results.synthesized, reused: results.reused, aligned: results.aligned,
            failed: results.failures,
            remaining: counts.items - counts.done - (stages.contains(.align) ? 0 : counts.spoken),
            // A stop in any stage (synthesis, export, verification) makes the build cancelled: a
            // verification cut short is never reported as passed.
            cancelled: results.stopped || context.cancellation.isCancelled, audioMs: counts.audioMs,
            elapsedSeconds: (ContinuousClock.now - context.started).seconds)
        summary.exportedFiles = results.exported.files
        summary.encodedChapters = results.exported.encodedChapters + (results.finishing?.encodedChapters ?? 0)
        summary.downloadedEncodings =
            results.exported.downloadedEncodings + (results.finishing?.downloadedEncodings ?? 0)
        summary.uploadedEncodings = results.finishing?.uploadedEncodings ?? 0
        summary.downloadedACXFiles = results.exported.downloadedACXFiles
        summary.masteredACXFiles = results.finishing?.masteredACXFiles ?? 0
        summary.uploadedACXFiles = results.finishing?.uploadedACXFiles ?? 0
        summary.shardTranscribedChunks = results.finishing?.transcribedChunks ?? 0
        summary.reproducibility = results.reproducibility
        summary.verification = results.verification?.report
        let traffic = results.traffic
        summary.remoteCache = recipe.cache.map {
            BuildSummary.RemoteCacheUse(
                cache: $0.name, downloaded: traffic.downloaded, downloadedBytes: traffic.downloadedBytes,
                uploaded: traffic.uploaded,
                uploadedBytes: traffic.uploadedBytes, downloadedChunks: traffic.downloadedChunks,
                uploadedChunks: traffic.uploadedChunks,
                downloadedAlignments: traffic.downloadedAlignments, uploadedAlignments: traffic.uploadedAlignments,
                available: !context.remoteCacheHealth.isUnavailable)
        }
        summary.remoteCache?.spotChecked = traffic.spotChecked
        summary.remoteCache?.spotCheckMismatches = traffic.spotCheckMismatches
        summary.remoteCache?.leftInCache = traffic.leftInCache
        summary.remoteCache?.leftInCacheBytes = traffic.leftInCacheBytes
        summary.remoteCache?.fetchedAudio = traffic.fetchedAudio
        summary.remoteCache?.fetchedAudioBytes = traffic.fetchedAudioBytes
        summary.shard = shard
        summary.services = results.speech?.serviceUsage ?? []
        summary.leftToOtherShards = results.speech?.items.leftToOtherShards ?? 0
        return summary
    }

    /// The row a build starts with: what it was made from, running.
    private func buildRecord(engines: [String], engineVersions: [String: String]) -> BuildRecord {
        BuildRecord(
            recipePath: recipe.file.path, recipeHash: recipe.contentHash, toolVersion: ForgeVersion.current,
            engine: engines.joined(separator: ","),
            engineVersion: engines.map { engineVersions[$0] ?? "" }.joined(separator: "; "),
            commandLine: commandLine,
            stages: Stage.allCases.filter(stages.contains).map(\.rawValue).joined(separator: ","),
            startedAt: BuildSession.timestamp(),
            settings: RecordedSettings(
                exports: recipe.exports, maxWordErrorRate: recipe.verify?.maxWordErrorRate,
                acceptedItems: recipe.verify?.accepted
            ).json)
    }

    /// The summary of a build with nothing to do, when the last build succeeded from the same
    /// inputs and nothing changed the directory since (``BuildFingerprint``): no source is split
    /// and no item loaded. Nil when the full pipeline must look.
    private func upToDate(
        _ fingerprint: BuildFingerprint, engines: [String], engineVersions: [String: String],
        started clock: ContinuousClock.Instant,
        progress: @escaping @Sendable (ProgressEvent) -> Void
    ) throws -> BuildSummary? {
        let directory = recipe.outputDirectory
        guard fingerprint.inputs != nil,
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(Manifest.fileName).path)
        else {
            return nil
        }
        let workspace = try OutputWorkspace(directory: directory)
        let manifest = workspace.manifest
        guard let value = try fingerprint.upToDate(manifest, directory: directory) else { return nil }
        // Uploads a stopped build did not finish (or made before the cache was configured) need the full path.
        if let cache = recipe.cache, !cache.readOnly, try manifest.countAwaitingUpload(cache: cache.name) > 0 {
            return nil
        }
        let session = try BuildSession.begin(
            buildRecord(engines: engines, engineVersions: engineVersions), in: manifest)
        let buildID = session.buildID
        progress(.started(buildID: buildID, outputDirectory: directory.path))
        let counts = try manifest.itemTotals()
        try session.finish(.init(outcome: .succeeded, total: counts.items))
        // The directory is locked: it is as the check above found it.
        try manifest.recordFingerprint(value, build: buildID)
        return withExtendedLifetime(workspace) {
            BuildSummary(
                buildID: buildID, outputDirectory: directory.path, itemsTotal: counts.items, upToDate: counts.items,
                synthesized: 0, reused: 0, aligned: 0, failed: [], remaining: 0, cancelled: false,
                audioMs: counts.audioMs,
                elapsedSeconds: (ContinuousClock.now - clock).seconds)
        }
    }

    static func prepareOutputDirectory(_ directory: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path: directory.path, reason: ErrorReason.text(error))
        }
        guard access(directory.path, W_OK) == 0 else { throw .notWritable(path: directory.path) }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).seconds
    }
}
