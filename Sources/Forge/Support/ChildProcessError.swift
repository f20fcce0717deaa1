import Foundation

/// A program Forge runs beside itself could not be started.
enum ChildProcessError: Error, LocalizedError, Equatable {
    case cannotStart(executable: String, reason: String)

    var errorDescription: String? {
        switch self {
        case let .cannotStart(executable, reason):
            "\(executable) could not be started: \(reason). Check that it exists and is executable."
        }
    }
}
