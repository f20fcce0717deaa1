import Foundation

/// Why a recipe's speech service cannot be used, or stopped a build. No message holds a key or a
/// request's headers.
package enum SpeechServiceError: LocalizedError, Sendable, Equatable {
    /// The recipe names a key variable the command line did not allow to go to the service's host.
    case keyNotAllowed(engine: String, variable: String, host: String)
    /// The key variable is not set.
    case keyMissing(engine: String, variable: String)
    /// The service does not have a voice the recipe asks for (`path`: where the recipe names it).
    case unknownVoice(file: String, path: String, engine: String, reason: String)
    /// The service refused the key.
    case keyRefused(engine: String, reason: String)
    /// A run of items failed by the service, after their retries: the build stopped.
    case failing(engine: String, items: Int, reason: String)

    package var errorDescription: String? { message.problem }

    /// What to do about it.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String) {
        switch self {
        case .keyNotAllowed(let engine, let variable, let host):
            return (
                "the recipe's engine \"\(engine)\" would send the environment variable \(variable) to \(host), and the command line does not allow that.",
                "Allow \(variable) to go to \(host) only if you trust this recipe with that key (docs/security.md)."
            )
        case .keyMissing(let engine, let variable):
            return (
                "the engine \"\(engine)\" takes its API key from the environment variable \(variable), which is not set.",
                "Set \(variable) to the service's key (never in the recipe), or change engines.\(engine).keyVariable."
            )
        case .unknownVoice(let file, let path, let engine, let reason):
            return (
                "\(file): \(path): engine \"\(engine)\": \(reason).",
                "Name a voice the service has, as \(engine):VOICE."
            )
        case .keyRefused(let engine, let reason):
            return (
                "the service of engine \"\(engine)\" refused its key (\(reason)).",
                "Check the key in engines.\(engine).keyVariable's variable and the service's account."
            )
        case .failing(let engine, let items, let reason):
            return (
                "the service is failing: engine \"\(engine)\" gave no audio for \(items) items in a row, the last: \(reason).",
                "Finished items are kept; run the build again to resume once the service answers."
            )
        }
    }
}

extension SpeechServiceError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .keyNotAllowed, .keyMissing, .unknownVoice, .keyRefused: .badInput
        case .failing: .cannotRun
        }
    }
}
