import Forge
import Foundation

/// Writes diagnostics on standard error: `warning: <message> <suggestion>` for a person, or with
/// `FORGE_DIAGNOSTICS=json` one JSON object per line (severity, message, file, line, field, item,
/// suggestion) for a tool — the SwiftPM plugin sets it and reports each to SwiftPM with its file.
enum DiagnosticPrinter {
    static var json: Bool { ProcessInfo.processInfo.environment["FORGE_DIAGNOSTICS"] == "json" }

    static func print(_ diagnostic: Diagnostic) {
        let line: String
        if json, let data = try? JSONEncoder.sorted.encode(diagnostic) {
            line = String(decoding: data, as: UTF8.self)
        } else {
            line = "\(diagnostic.severity.rawValue): \(diagnostic.text)"
        }
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }
}

extension JSONEncoder {
    /// Keys sorted, slashes as they are: one diagnostic or event per line, the same bytes every time.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
