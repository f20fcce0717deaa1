import ArgumentParser
import Forge

struct SplitCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "split",
        abstract: "Run only the split stage: record chapters, items and words in the manifest.")

    @OptionGroup var options: RecipeOptions
    @OptionGroup var events: EventOptions
    var verbose: Bool { options.verbose }

    func run() async throws {
        try await StageRunner.run([.split], options: options, events: events)
    }
}
