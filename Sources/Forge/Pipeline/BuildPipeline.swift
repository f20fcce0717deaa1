import Foundation

/// Runs the split, speak and align stages of a recipe against its output directory.
///
/// The orchestrator (this process) is the only writer of the manifest. Synthesis happens in
/// worker processes; finished items are committed every `saveInterval` items, so a crash or
/// Ctrl-C loses at most the items since the last save, and everything saved stays valid.
public struct BuildPipeline: Sendable {
    public var recipe: Recipe
    public var stages: Set<Stage>
    public var workerLaunch: WorkerPool.Launch
    /// Recorded in the build row, so every object can be traced to how it was made.
    public var commandLine: String

    public init(recipe: Recipe, stages: Set<Stage> = Set(Stage.allCases), workerLaunch: WorkerPool.Launch, commandLine: String) {
        self.recipe = recipe
        self.stages = stages
        self.workerLaunch = workerLaunch
        self.commandLine = commandLine
    }

    /// Checks every voice of the recipe (narrator, cast, fallback) against its engine and returns
    /// each engine's version by name: espeak-ng's always, and a command engine's from its hello
    /// (which needs `allowCommands`). Runs before anything is written.
    public static func engineVersions(of recipe: Recipe) throws -> [String: String] {
        let engines = SpeechEngines(commands: recipe.engines)
        var versions: [String: String] = [:]
        for name in [SpeechEngines.builtInName] + recipe.allVoices.map(\.voice.engine) where versions[name] == nil {
            if let settings = recipe.engines[name], !recipe.allowCommands {
                throw CommandEngineError.notAllowed(engine: settings.name, command: settings.command)
            }
            do {
                // A command engine is started once here to learn its version, which is part of every key of its audio.
                versions[name] = try engines.engine(named: name).version
            } catch let error as SpeechError {
                throw PipelineError.engineUnavailable(error.localizedDescription)
            }
        }
        for (path, voice) in recipe.allVoices {
            if let suggestions = try engines.engine(named: voice.engine).suggestionsIfUnknown(voice) {
                throw RecipeError.unknownVoice(
                    file: recipe.file.path, path: path == "voice" ? "voice.id" : path, found: voice.id, suggestions: suggestions)
            }
        }
        return versions
    }

    /// The engines the recipe's voices use, narrator's first, each once: what a build row records.
    static func enginesUsed(by recipe: Recipe) -> [String] {
        var seen = Set<String>()
        return recipe.allVoices.map(\.voice.engine).filter { seen.insert($0).inserted }
    }

    /// The message for characters without a voice in the cast.
    public static func uncastWarning(_ characters: [String]) -> String {
        let names = characters.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ") + (characters.count > 20 ? " and \(characters.count - 20) more" : "")
        return "no voice in the cast for \(names); \(characters.count == 1 ? "it speaks" : "they speak") with the narrator's voice. Add \(characters.count == 1 ? "it" : "them") to \"cast\" to give \(characters.count == 1 ? "it its" : "them their") own."
    }

    /// Runs the selected stages. Throws only when the build cannot run at all; item failures
    /// are reported in the summary.
    public func run(cancellation: CancellationFlag, progress: @escaping @Sendable (ProgressEvent) -> Void) async throws -> BuildSummary {
        let clock = ContinuousClock.now
        let engineVersions = try Self.engineVersions(of: recipe)
        let engines = Self.enginesUsed(by: recipe)
        let split = stages.contains(.split) ? try recipe.splitSources() : nil
        let directory = recipe.outputDirectory
        // From here on a stop winds down and keeps what is finished.
        cancellation.beginKeepingWork()
        try Self.prepareOutputDirectory(directory)
        let lock = try OutputLock(directory: directory)
        let store = ObjectStore(root: directory)
        try store.prepare()
        try store.owned.leftovers(remove: true)
        let manifest = try Manifest(directory: directory)
        var record = BuildRecord(
            recipePath: recipe.file.path, recipeHash: recipe.contentHash, toolVersion: ForgeVersion.current,
            engine: engines.joined(separator: ","), engineVersion: engines.map { engineVersions[$0] ?? "" }.joined(separator: "; "),
            commandLine: commandLine,
            stages: Stage.allCases.filter(stages.contains).map(\.rawValue).joined(separator: ","),
            startedAt: Self.timestamp())
        let buildID = try manifest.beginBuild(record)
        record.id = buildID
        progress(.started(buildID: buildID, outputDirectory: directory.path))
        if let split {
            let uncast = recipe.uncastCharacters(split.items.map(\.character))
            if !uncast.isEmpty { progress(.warning(Self.uncastWarning(uncast))) }
        }

        var run = StageRun(
            recipe: recipe, engineVersions: engineVersions, store: store, manifest: manifest, buildID: buildID,
            cancellation: cancellation, progress: progress, started: clock)
        do {
            if let split {
                try run.record(split)
            }
            if stages.contains(.speak) || stages.contains(.align) {
                let byEvents = stages.contains(.align) && recipe.alignment.method == .auto
                try await run.speakAndAlign(speak: stages.contains(.speak), align: byEvents, launch: workerLaunch)
            }
            if stages.contains(.align) && !run.cancelled {
                try await run.forceAlign(threads: recipe.build.jobs)
            }
        } catch {
            try? manifest.finishBuild(
                buildID, outcome: .failed, endedAt: Self.timestamp(), total: run.itemsTotal,
                synthesized: run.synthesized, reused: run.reused, failed: run.failures.count)
            throw error
        }
        var counts = try manifest.statusCounts()
        var exported: [String] = []
        if !recipe.exports.formats.isEmpty && !cancellation.isCancelled && counts.done == counts.items && stages.contains(.align) {
            progress(.phase("export"))
            do {
                exported = try Exporter(outputDirectory: directory, settings: recipe.exports, cancellation: cancellation).exportIfChanged(using: manifest)
            } catch ExportError.cancelled {
                // Every file written is whole; the next build exports again (the stamp was not written).
            } catch {
                try? manifest.finishBuild(
                    buildID, outcome: .failed, endedAt: Self.timestamp(), total: run.itemsTotal,
                    synthesized: run.synthesized, reused: run.reused, failed: run.failures.count)
                throw error
            }
            counts = try manifest.statusCounts()
        }
        var verification: VerifyReport?
        if let verify = recipe.verify, !cancellation.isCancelled, counts.done == counts.items, stages.contains(.align) {
            progress(.phase("verify"))
            do {
                let report = try VerificationRun(outputDirectory: directory, settings: verify, pauses: recipe.exports, language: recipe.language)
                    .run(using: manifest, build: buildID, cancellation: cancellation) { chunk in progress(.verified(chunk)) }
                if !report.available && verify.required {
                    throw PipelineError.verificationUnavailable(reason: report.unavailableReason ?? "unknown")
                }
                verification = report
            } catch {
                try? manifest.finishBuild(
                    buildID, outcome: .failed, endedAt: Self.timestamp(), total: run.itemsTotal,
                    synthesized: run.synthesized, reused: run.reused, failed: run.failures.count)
                throw error
            }
        }
        var summary = BuildSummary(
            buildID: buildID, outputDirectory: directory.path, itemsTotal: counts.items, upToDate: run.upToDate,
            synthesized: run.synthesized, reused: run.reused, aligned: run.alignedOnly, failed: run.failures,
            remaining: counts.items - counts.done - (stages.contains(.align) ? 0 : counts.spoken),
            // A stop in any phase (synthesis, export, verification) makes the build cancelled: a
            // verification cut short is never reported as passed.
            cancelled: run.cancelled || cancellation.isCancelled, audioMs: counts.audioMs,
            elapsedSeconds: Self.seconds(since: clock))
        summary.exportedFiles = exported
        summary.verification = verification
        let outcome: BuildRecord.Outcome = summary.cancelled ? .cancelled : (summary.exitCode == 0 ? .succeeded : .failed)
        try manifest.finishBuild(
            buildID, outcome: outcome, endedAt: Self.timestamp(), total: counts.items,
            synthesized: run.synthesized, reused: run.reused, failed: run.failures.count)
        withExtendedLifetime(lock) {}
        return summary
    }

    static func prepareOutputDirectory(_ directory: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path: directory.path, reason: ErrorReason.text(error))
        }
        guard access(directory.path, W_OK) == 0 else { throw .notWritable(path: directory.path) }
    }

    static func timestamp() -> String {
        Date().formatted(.iso8601)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
