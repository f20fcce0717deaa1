import ArgumentParser
import Forge
import Foundation

/// The recipe and the overrides every recipe-driven command accepts (``WorkOptions`` and
/// ``EventOptions`` add what only the commands that synthesize or report progress take).
struct RecipeOptions: ParsableArguments {
    @Argument(help: "The recipe JSON file.", completion: .file(extensions: ["json"]))
    var recipe: String

    @Option(name: [.short, .long], help: "Output directory (overrides output.directory in the recipe).")
    var output: String?

    @Flag(
        name: .long,
        help:
            "Log phase timings, worker restarts and command engines' standard error (swift-log, to standard error; FORGE_LOG_LEVEL=debug for more)."
    )
    var verbose = false

    @Flag(
        name: .long,
        help: "Allow sources and the output directory outside the project (the recipe's repository or folder).")
    var allowOutsidePaths = false

    @Flag(
        name: .long,
        help:
            "Allow the recipe's command engines to run (programs named under \"engines\"). Off so an untrusted recipe cannot run programs."
    )
    var allowCommands = false

    @Option(
        name: .customLong("engine-key"),
        help: ArgumentHelp(
            "Allow the environment variable VARIABLE, the API key a speech service in the recipe names, to be sent to HOST (repeatable). Without it no key leaves this machine.",
            valueName: "VARIABLE=HOST"))
    var engineKeys: [String] = []

    func validate() throws {
        if SpeechServiceKeyGrants(engineKeys) == nil {
            throw ValidationError(
                "--engine-key takes VARIABLE=HOST, e.g. --engine-key OPENAI_API_KEY=api.openai.com (a host name, no scheme or path)"
            )
        }
    }

    /// Loads and validates the recipe with the command-line overrides applied.
    func load() throws -> Recipe {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let outputURL = output.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        do {
            var recipe = try RecipeLoader().load(
                from: URL(fileURLWithPath: recipe, relativeTo: cwd), outputOverride: outputURL,
                allowOutsidePaths: allowOutsidePaths)
            recipe.allowCommands = allowCommands
            recipe.serviceKeyGrants = SpeechServiceKeyGrants(engineKeys) ?? SpeechServiceKeyGrants()
            return recipe
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// How the commands that synthesize (build, speak, align) do their work.
struct WorkOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help:
            "Synthesis worker processes, or alignment threads for align — here -j counts them (overrides build.jobs; default: one per core)."
    )
    var jobs: Int?

    @Option(
        name: .long,
        help: "Commit finished items every N items (overrides build.saveInterval; default: every second or 64 items).")
    var saveInterval: Int?

    func validate() throws {
        try ValidationError.check("--jobs", jobs, in: BuildSettings.allowedJobs)
        try ValidationError.check("--save-interval", saveInterval, in: BuildSettings.allowedSaveIntervals)
    }

    func apply(to recipe: Recipe) -> Recipe {
        var recipe = recipe
        if let jobs { recipe.build.jobs = jobs }
        if let saveInterval { recipe.build.saveInterval = saveInterval }
        return recipe
    }
}

/// How the stage commands report progress.
struct EventOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON Lines events and a JSON summary instead of a live progress line.")
    var json = false
}
