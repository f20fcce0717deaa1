/// A command with a `--verbose` flag, which turns on the library's log before it runs.
protocol VerboseCommand {
    var verbose: Bool { get }
}
