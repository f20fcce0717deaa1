import ArgumentParser
import Forge

struct BuildCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Split, speak and align a recipe into its output directory; resumes where a previous run stopped.")

    @OptionGroup var options: RecipeOptions
    @OptionGroup var work: WorkOptions
    @OptionGroup var events: EventOptions
    @OptionGroup(title: "Remote cache") var cache: RemoteCacheOptions
    var verbose: Bool { options.verbose }

    @Option(
        help: ArgumentHelp(
            "Make only part I of N of the items and upload them to the remote cache (no exports); a build without --shard on any machine with the cache assembles the book.",
            valueName: "I/N"),
        transform: { text in
            guard let shard = Shard(text) else {
                throw ValidationError(
                    "--shard \(text): give I/N with 1 ≤ I ≤ N ≤ \(Shard.allowedCounts.upperBound), for example --shard 2/3."
                )
            }
            return shard
        })
    var shard: Shard?

    @Flag(
        help:
            "After the build, make its finished items again in a scratch area and compare their audio with the store's; exit 1 naming each item whose bytes differ."
    )
    var checkReproducible = false

    @Option(
        help: ArgumentHelp(
            "With --check-reproducible, make only this many items again (chosen by the digests of their ids; default: all).",
            valueName: "N"))
    var checkItems: Int?

    func validate() throws {
        if let checkItems, checkItems < 1 || !checkReproducible {
            throw ValidationError("--check-items \(checkItems): give a count of at least 1, with --check-reproducible.")
        }
    }

    func run() async throws {
        try await StageRunner.run(
            [.split, .speak, .align], options: options, work: work, events: events, cache: cache, shard: shard,
            checkReproducible: checkReproducible ? .some(checkItems) : nil)
    }
}
