import ArgumentParser
import Forge

extension NarrationMethod: ExpressibleByArgument {}

/// The options `forge align narration` and `forge sync` share: the title, the pass mark, JSON.
struct NarrationOptions: ParsableArguments {
    @Option(help: "The book's title, for exports and the manifest (default: the text file's name).")
    var title: String?

    @Option(
        help:
            "The largest share, 0–1, of the text not heard or of the speech not in the text that passes (default: 0.05)."
    )
    var maxUnmatched: Double?

    @Flag(
        name: .long,
        help:
            "Print JSON Lines (an `aligning` line per window, a closing `narration` report) instead of a progress line."
    )
    var json = false

    @Option(
        help: ArgumentHelp(
            "How the recording is aligned: warp (Forge reads the text itself and warps its reading onto the recording; the acoustic model examines only where they part) or windows (the acoustic model hears the whole recording).",
            valueName: "method"))
    var aligner = NarrationMethod.warp

    @Flag(name: .long, help: "Log phase timings to standard error (FORGE_LOG_LEVEL=debug for more).")
    var verbose = false

    func validate() throws {
        if let maxUnmatched, !(0...1).contains(maxUnmatched) {
            throw ValidationError("--max-unmatched is a share between 0 and 1 (e.g. 0.05), not \(maxUnmatched).")
        }
    }
}
