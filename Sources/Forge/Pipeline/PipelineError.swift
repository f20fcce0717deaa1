import Foundation

/// Why a stage could not run at all (as opposed to an item failing).
public enum PipelineError: LocalizedError, Sendable, Equatable {
    case nothingSplit(outputDirectory: String)
    case engineUnavailable(String)
    case verificationUnavailable(reason: String)

    public var errorDescription: String? {
        switch self {
        case let .nothingSplit(directory):
            return "\(directory): no items to speak; run `forge split <recipe>` (or `forge build <recipe>`) first."
        case let .engineUnavailable(reason):
            return reason
        case let .verificationUnavailable(reason):
            return "the recipe requires verification (verify.required), but it cannot run: \(reason) Install the recognizer, or set verify.required to false to build without it."
        }
    }
}
