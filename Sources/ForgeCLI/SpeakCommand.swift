import ArgumentParser
import Forge

struct SpeakCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "speak",
        abstract: "Run only the speak stage: synthesize the items the last split recorded (no word timings).")

    @OptionGroup var options: RecipeOptions
    @OptionGroup var work: WorkOptions
    @OptionGroup var events: EventOptions
    @OptionGroup(title: "Remote cache") var cache: RemoteCacheOptions
    var verbose: Bool { options.verbose }

    func run() async throws {
        try await StageRunner.run([.speak], options: options, work: work, events: events, cache: cache)
    }
}
