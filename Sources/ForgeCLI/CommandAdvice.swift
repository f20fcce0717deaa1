import Forge

/// What to type to fix an error. The library's suggestions say what to do in words ("choose
/// another output directory"); where the fix is a flag or a command of this executable, the
/// command line names it instead.
enum CommandAdvice {
    static func advice(for error: any Error) -> String? {
        switch error {
        case let error as StoreError: advice(for: error)
        case let error as RecipeError: advice(for: error)
        case let error as SpeechError: advice(for: error)
        case let error as CommandEngineError: advice(for: error)
        case let error as PipelineError: advice(for: error)
        case let error as ExportError: advice(for: error)
        case let error as RemoteCacheError: advice(for: error)
        case let error as SpeechServiceError: advice(for: error)
        default: nil
        }
    }

    private static func advice(for error: StoreError) -> String? {
        switch error {
        case .cannotCreate: "Choose another with --output or output.directory."
        case .notWritable: "Fix its permissions or choose another with --output."
        case .notAnOutputDirectory: "Run `forge build <recipe>` first, or name the directory a build wrote."
        case .readFailed: "Run `forge fsck` on the output directory to check the store."
        case .linkInOutput: error.recoverySuggestion.map { "\($0) `forge fsck` lists such links." }
        default: nil
        }
    }

    private static func advice(for error: RecipeError) -> String? {
        switch error {
        case .outsideProject: "Move it inside, or pass --allow-outside-paths if you trust this recipe."
        case .unknownVoice:
            "Run `forge voices` for the installed voices and variants (a variant is added as \"+name\", e.g. \"en-us+klatt\")."
        default: nil
        }
    }

    private static func advice(for error: SpeechError) -> String? {
        switch error {
        case .unknownVoice: "Run `forge voices` for the installed voices and variants."
        case .nothingToSay: "Give the text to speak as the argument, or - to read it from standard input."
        case .cannotWrite: "Check that the folder exists and is writable, or give another -o path."
        default: nil
        }
    }

    private static func advice(for error: CommandEngineError) -> String? {
        if case .notAllowed = error {
            return "Forge runs recipe programs only with --allow-commands. Pass it if you trust this recipe."
        }
        return nil
    }

    private static func advice(for error: SpeechServiceError) -> String? {
        if case .keyNotAllowed(_, let variable, let host) = error {
            return "Pass --engine-key \(variable)=\(host) if you trust this recipe with that key."
        }
        return nil
    }

    private static func advice(for error: PipelineError) -> String? {
        switch error {
        case .shardWithoutCache:
            "Give --remote-cache URL (or FORGE_REMOTE_CACHE, or \"cache\": {\"remote\": …} in the recipe), without --remote-cache-read-only."
        case .nothingSplit: "Run `forge split <recipe>` (or `forge build <recipe>`) first."
        default: nil
        }
    }

    private static func advice(for error: ExportError) -> String? {
        switch error {
        case .notBuilt: "Run `forge build` on the recipe first."
        case .missingAudio: "Run `forge fsck --repair` on the output directory, then `forge build`."
        case .linkInOutput(let path): advice(for: StoreError.linkInOutput(path: path))
        default: nil
        }
    }

    private static func advice(for error: RemoteCacheError) -> String? {
        if case .localStore = error { return "Run `forge fsck` on the output directory." }
        if case .audioNotFetched(_, _, let lost, _) = error {
            return lost > 0
                ? "Run `forge build` on the recipe: it makes the pending items."
                : "Or run `forge build` on the recipe with --remote-download-all."
        }
        return nil
    }
}
