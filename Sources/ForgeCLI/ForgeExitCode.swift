import Forge
import Foundation

/// The exit codes forge documents (README, `forge --help`).
enum ForgeExitCode: Int32 {
    case success = 0
    case itemsFailed = 1
    case usage = 2
    case cannotRun = 3
    case cancelled = 130

    /// The code for how a build that ran ended.
    init(_ outcome: BuildSummary.Outcome) {
        switch outcome {
        case .succeeded: self = .success
        case .itemsFailed: self = .itemsFailed
        case .cancelled: self = .cancelled
        }
    }

    /// The code for an error that stopped a command before or outside item work: the library's
    /// errors say which kind of failure they are, case by case (``ClassifiedFailure``), and every
    /// kind has its code here; anything else (a system error) could not run.
    static func forError(_ error: any Error) -> ForgeExitCode {
        guard let classified = error as? any ClassifiedFailure else { return .cannotRun }
        switch classified.failureKind {
        case .badInput: return .usage
        case .cannotRun: return .cannotRun
        case .cancelled: return .cancelled
        }
    }
}
