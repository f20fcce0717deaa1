import Foundation

/// A program Forge runs beside itself could not be started.
enum ChildProcessError: Error, LocalizedError, Equatable {
    case cannotStart(executable: String, reason: String)

    var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .cannotStart(let executable, let reason):
            return ("\(executable) could not be started: \(reason).", "Check that it exists and is executable.")
        }
    }
}

extension ChildProcessError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    var failureKind: FailureKind {
        switch self {
        case .cannotStart: .cannotRun
        }
    }
}
