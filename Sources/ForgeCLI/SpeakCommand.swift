import ArgumentParser
import Forge

struct SpeakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speak",
        abstract: "Run only the speak stage: synthesize the items the last split recorded (no word timings).")

    @OptionGroup var options: RecipeOptions

    func run() async throws {
        try await StageRunner.run([.speak], options: options)
    }
}
