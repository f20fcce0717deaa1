/// Something a person should know, with where it is: a warning that does not stop the work (an
/// uncast character, a fallback voice, a rejected cache entry), or the error that did. The command
/// line prints it as `warning: …` / `error: …`; for tools it is JSON (a `diagnostic` event in
/// `--json` output, or every diagnostic on standard error with `FORGE_DIAGNOSTICS=json`), which the
/// SwiftPM plugin reads to report each with its severity and file.
package struct Diagnostic: Sendable, Equatable, Codable {
    package enum Severity: String, Sendable, Codable {
        case error, warning, note
    }

    package var severity: Severity
    package var message: String
    /// The file it is about (a recipe, a source), and the line there when known.
    package var file: String?
    package var line: Int?
    /// The field of a recipe it is about (`voice.rate`).
    package var field: String?
    /// The item it is about.
    package var item: String?
    /// What to do about it.
    package var suggestion: String?

    package init(
        _ severity: Severity, _ message: String, file: String? = nil, line: Int? = nil, field: String? = nil,
        item: String? = nil,
        suggestion: String? = nil
    ) {
        self.severity = severity
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        self.item = item
        self.suggestion = suggestion
    }

    package static func warning(_ message: String, file: String? = nil, item: String? = nil, suggestion: String? = nil)
        -> Diagnostic
    {
        Diagnostic(.warning, message, file: file, item: item, suggestion: suggestion)
    }

    /// The message and the suggestion after it, as a person reads them.
    package var text: String {
        suggestion.map { "\(message) \($0)" } ?? message
    }
}
