import ArgumentParser
import Forge

struct BuildCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Split, speak and align a recipe into its output directory; resumes where a previous run stopped.")

    @OptionGroup var options: RecipeOptions
    var verbose: Bool { options.verbose }

    func run() async throws {
        try await StageRunner.run([.split, .speak, .align], options: options)
    }
}
