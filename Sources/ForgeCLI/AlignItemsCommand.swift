import ArgumentParser
import Forge

struct AlignItemsCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract:
            "Run only the align stage of a recipe: time the words of items that have audio but no current timings.",
        discussion: """
            Word timings come from the synthesizer's events, or from forced alignment with pocketsphinx where there are \
            none or the recipe's alignment.method is "forced". `forge align recipe.json` runs this subcommand.
            """)

    @OptionGroup var options: RecipeOptions
    @OptionGroup var work: WorkOptions
    @OptionGroup var events: EventOptions
    var verbose: Bool { options.verbose }

    func run() async throws {
        try await StageRunner.run([.align], options: options, work: work, events: events)
    }
}
