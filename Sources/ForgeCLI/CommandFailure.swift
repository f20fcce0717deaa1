import Forge
import Foundation

/// An error already turned into a message and an exit code.
struct CommandFailure: Error {
    var message: String
    var code: ForgeExitCode

    init(message: String, code: ForgeExitCode) {
        self.message = message
        self.code = code
    }

    init(_ error: any Error) {
        let problem = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        let fix = CommandAdvice.advice(for: error) ?? (error as? any LocalizedError)?.recoverySuggestion
        message = Self.tidy(fix.map { "\(problem) \($0)" } ?? problem)
        code = ForgeExitCode.forError(error)
    }

    /// A reason that ended in a period, placed before the message's own, leaves "..": one is kept
    /// (an ellipsis "..." and paths such as "../book.txt" are left alone).
    static func tidy(_ message: String) -> String {
        message.replacingOccurrences(of: #"(?<!\.)\.\.(?=\s|$)"#, with: ".", options: .regularExpression)
    }
}
