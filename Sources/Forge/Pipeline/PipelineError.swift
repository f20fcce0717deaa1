import Foundation

/// Why a stage could not run at all (as opposed to an item failing).
package enum PipelineError: LocalizedError, Sendable, Equatable {
    case nothingSplit(outputDirectory: String)
    /// `--shard` without a writable remote cache: the shard's work would reach no other machine.
    case shardWithoutCache
    case engineUnavailable(String)
    case verificationUnavailable(reason: String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .shardWithoutCache:
            return (
                "A shard build shares its items through a remote cache, and this build has none it may write to.",
                "Give it a remote cache it may write to (the recipe's \"cache\": {\"remote\": …} or FORGE_REMOTE_CACHE), not a read-only one."
            )
        case .nothingSplit(let directory):
            return ("\(directory): no items to speak.", "Split or build the recipe first.")
        case .engineUnavailable(let reason):
            return (reason, nil)
        case .verificationUnavailable(let reason):
            return (
                "the recipe requires verification (verify.required), but it cannot run: \(reason)",
                "Install the recognizer, or set verify.required to false to build without it."
            )
        }
    }
}

extension PipelineError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .shardWithoutCache: .badInput
        case .nothingSplit, .engineUnavailable, .verificationUnavailable: .cannotRun
        }
    }
}
