import ArgumentParser
import Forge

struct AlignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "align",
        abstract: "Run only the align stage: word timings for items that have audio but no current timings.")

    @OptionGroup var options: RecipeOptions

    func run() async throws {
        try await StageRunner.run([.align], options: options)
    }
}
