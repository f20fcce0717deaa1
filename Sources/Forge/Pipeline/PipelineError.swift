import Foundation

/// Why a stage could not run at all (as opposed to an item failing).
public enum PipelineError: LocalizedError, Sendable, Equatable {
    case nothingSplit(outputDirectory: String)
    case engineUnavailable(String)

    public var errorDescription: String? {
        switch self {
        case let .nothingSplit(directory):
            return "\(directory): no items to speak; run `forge split <recipe>` (or `forge build <recipe>`) first."
        case let .engineUnavailable(reason):
            return reason
        }
    }
}
