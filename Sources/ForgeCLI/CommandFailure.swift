import Forge
import Foundation

/// An error already turned into a message and an exit code.
struct CommandFailure: Error {
    /// What went wrong, where and what to do, as a diagnostic (printed as `error: …`, or as JSON).
    var diagnostic: Diagnostic
    var code: ForgeExitCode
    /// The problem and its fix, as a person reads them.
    var message: String { Self.tidy(diagnostic.text) }

    init(message: String, code: ForgeExitCode) {
        diagnostic = Diagnostic(.error, message)
        self.code = code
    }

    init(_ error: any Error) {
        let problem = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        let fix = CommandAdvice.advice(for: error) ?? (error as? any LocalizedError)?.recoverySuggestion
        diagnostic = Diagnostic(.error, problem, suggestion: fix)
        if let recipe = error as? RecipeError {
            (diagnostic.file, diagnostic.line, diagnostic.field) = (recipe.file, recipe.line, recipe.path)
        }
        code = ForgeExitCode.forError(error)
    }

    /// A reason that ended in a period, placed before the message's own, leaves "..": one is kept
    /// (an ellipsis "..." and paths such as "../book.txt" are left alone).
    static func tidy(_ message: String) -> String {
        message.replacingOccurrences(of: #"(?<!\.)\.\.(?=\s|$)"#, with: ".", options: .regularExpression)
    }

    /// Writes the failure on standard error (`error: …`, or JSON for a tool).
    func print() {
        var diagnostic = diagnostic
        diagnostic.message = Self.tidy(diagnostic.message)
        if !DiagnosticPrinter.json {
            (diagnostic.message, diagnostic.suggestion) = (message, nil)
        }
        DiagnosticPrinter.print(diagnostic)
    }
}
