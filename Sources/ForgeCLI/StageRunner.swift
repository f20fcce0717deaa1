import ArgumentParser
import Forge
import Foundation

/// Runs pipeline stages for a recipe command, with progress output and exit codes.
enum StageRunner {
    static func run(
        _ stages: Set<Stage>, options: RecipeOptions, work: WorkOptions? = nil, events: EventOptions,
        cache: RemoteCacheOptions? = nil, shard: Shard? = nil,
        checkReproducible: Int?? = nil
    ) async throws {
        var recipe = try options.load()
        if let work { recipe = work.apply(to: recipe) }
        if let cache { recipe = try cache.apply(to: recipe) }
        let printer = ProgressPrinter(mode: ProgressPrinter.mode(json: events.json))
        let cancellation = InterruptMonitor.flag
        var pipeline = BuildPipeline(
            recipe: recipe, stages: stages,
            workerLaunch: WorkerPool.Launch(
                executable: executableURL(), arguments: ["worker", "--store", recipe.outputDirectory.path]),
            commandLine: CommandLine.arguments.joined(separator: " "))
        pipeline.shard = shard
        pipeline.checkReproducible = checkReproducible
        let summary: BuildSummary
        do {
            summary = try await pipeline.run(cancellation: cancellation) { event in printer.handle(event) }
        } catch {
            printer.clearLine()
            let failure = CommandFailure(error)
            printer.fail(failure, outputDirectory: recipe.outputDirectory.path)
            throw failure
        }
        printer.finish(summary, stages: stages, recipePath: options.recipe)
        let code = ForgeExitCode(summary.outcome)
        if code != .success { throw ExitCode(code.rawValue) }
    }

    /// This executable, which also serves as the synthesis worker (`forge worker`).
    static func executableURL() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}
