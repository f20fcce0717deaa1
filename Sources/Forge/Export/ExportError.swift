import Foundation

/// Why an export could not be written.
package enum ExportError: LocalizedError, Sendable, Equatable {
    case notBuilt(outputDirectory: String, pending: Int)
    case missingAudio(itemID: String, path: String)
    case writeFailed(path: String, reason: String)
    case linkInOutput(path: String)
    /// An environment variable forge reads has a value it cannot use.
    case badEnvironment(variable: String, problem: String)
    /// A file the user named (`--pack`) that forge must not replace.
    case unsafeTarget(path: String, reason: String)
    case toolMissing(tool: String, detail: String)
    case encoderFailed(tool: String, detail: String)
    /// A credit of the ACX set has no audio in the store: the library's caller did not have it
    /// spoken (``CreditSpeech``) before exporting.
    case creditNotSpoken(text: String)
    /// A stop (Ctrl-C, SIGTERM) was asked for; the files written before it are complete.
    case cancelled(written: Int)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .notBuilt(let directory, let pending):
            return (
                "\(directory): \(pending) item(s) have no audio or word timings yet (exports are derived from a finished build).",
                "Build the recipe first."
            )
        case .missingAudio(let itemID, let path):
            return (
                "item \(itemID): its audio object \(path) is missing or unreadable.",
                "Repair the store, then build the recipe again."
            )
        case .writeFailed(let path, let reason):
            return (
                "\(path): could not write the export: \(ErrorReason.trimmed(reason)).",
                "Free space or fix permissions, then export again."
            )
        case .toolMissing(let tool, let detail):
            return (
                "the m4b and acx exports need \(tool), which could not be run (\(ErrorReason.trimmed(detail))).",
                "Install it with `apt-get install \(tool)` (scripts/install-deps.sh does), or set FORGE_FFMPEG to its path."
            )
        case .encoderFailed(let tool, let detail):
            return ("\(tool) failed to encode: \(ErrorReason.trimmed(detail)). Nothing half-written was kept.", nil)
        case .linkInOutput(let path):
            return (
                StoreError.linkInOutput(path: path).errorDescription ?? "",
                StoreError.linkInOutput(path: path).recoverySuggestion
            )
        case .badEnvironment(let variable, let problem):
            return ("\(variable) \(problem).", "Fix or unset it.")
        case .unsafeTarget(let path, let reason):
            return ("\(path): not written: \(reason).", "Name a new file, or a regular file forge may replace.")
        case .creditNotSpoken(let text):
            return (
                "the ACX credit \"\(text.prefix(60))\" has no audio in the store (credits are spoken by a synthesis worker before the export).",
                "Have the credits spoken first (CreditSpeech), as a build and an export from the command line do."
            )
        case .cancelled(let written):
            return (
                "stopped before finishing; \(written) file(s) were written whole and nothing half-written was left.",
                "Run the export again to finish."
            )
        }
    }
}

extension ExportError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unsafeTarget, .badEnvironment: .badInput
        case .cancelled: .cancelled
        case .notBuilt, .missingAudio, .writeFailed, .linkInOutput, .toolMissing, .encoderFailed, .creditNotSpoken:
            .cannotRun
        }
    }
}
