import Foundation

/// Why a command engine could not be used.
package enum CommandEngineError: LocalizedError, Sendable, Equatable {
    case cannotStart(engine: String, command: [String], reason: String)
    case protocolViolation(engine: String, detail: String)
    case exited(engine: String, detail: String)
    case timedOut(engine: String, seconds: Int)
    case notAllowed(engine: String, command: [String])

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .cannotStart(let engine, let command, let reason):
            return (
                "engine \"\(engine)\": cannot run \(command.joined(separator: " ")): \(reason).",
                "Check engines.\(engine).command in the recipe and that the program is installed (docs/engines.md)."
            )
        case .protocolViolation(let engine, let detail):
            return ("engine \"\(engine)\" does not speak Forge's engine protocol: \(detail).", "See docs/engines.md.")
        case .exited(let engine, let detail):
            return (
                "engine \"\(engine)\" stopped unexpectedly; \(ErrorReason.trimmed(detail)).",
                "Check engines.\(engine).command in the recipe and that the program is installed (docs/engines.md)."
            )
        case .timedOut(let engine, let seconds):
            return (
                "engine \"\(engine)\" gave no answer within \(seconds) s.",
                "Raise engines.\(engine).timeoutSeconds in the recipe if it is just slow."
            )
        case .notAllowed(let engine, let command):
            return (
                "the recipe's engine \"\(engine)\" runs a program (\(command.joined(separator: " "))), and running the recipe's programs was not allowed.",
                "Allow them only if you trust this recipe."
            )
        }
    }
}

extension CommandEngineError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .notAllowed: .badInput
        case .cannotStart, .protocolViolation, .exited, .timedOut: .cannotRun
        }
    }
}
