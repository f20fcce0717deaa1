import Foundation

/// Why audio could not be measured or checked against a loudness profile.
package enum MasteringError: LocalizedError, Sendable, Equatable {
    case meterUnavailable(String)
    case unknownProfile(String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .meterUnavailable(let reason):
            return ("loudness cannot be measured: \(reason).", "Install libebur128 (`apt-get install libebur128-dev`).")
        case .unknownProfile(let name):
            return (
                "unknown loudness profile \"\(name)\".",
                "Choose from \(LoudnessProfile.all.map(\.name).joined(separator: ", "))."
            )
        }
    }
}

extension MasteringError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .meterUnavailable, .unknownProfile: .cannotRun
        }
    }
}
