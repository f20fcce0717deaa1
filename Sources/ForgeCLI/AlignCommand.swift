import ArgumentParser

/// `forge align`: word timings, for a recipe's items (the default) or for a narration.
struct AlignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "align",
        abstract:
            "Word timings: the align stage of a recipe (forge align recipe.json), or a narration aligned to its text (forge align narration).",
        subcommands: [AlignItemsCommand.self, AlignNarrationCommand.self],
        defaultSubcommand: AlignItemsCommand.self)
}
