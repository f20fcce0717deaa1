import ArgumentParser
import Forge

struct SpeakCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "speak",
        abstract: "Run only the speak stage: synthesize the items the last split recorded (no word timings).")

    @OptionGroup var options: RecipeOptions
    @OptionGroup(title: "Remote cache") var cache: RemoteCacheOptions
    var verbose: Bool { options.verbose }

    func run() async throws {
        try await StageRunner.run([.speak], options: options, cache: cache)
    }
}
