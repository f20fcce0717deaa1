import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory forge build recipes/sample.json`:
/// builds the package's own `forge` product and runs it, in the package directory, with the
/// arguments given, so the plugin and the command line are one program.
@main
struct ForgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let build = try packageManager.build(
            .product("forge"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded else {
            Diagnostics.error(build.logText)
            throw ForgePluginError.buildFailed
        }
        guard
            let forge = build.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "forge"
            })
        else {
            throw ForgePluginError.noExecutable
        }
        let process = Process()
        process.executableURL = forge.url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        // Diagnostics as JSON lines on standard error: each is reported with its severity and file.
        process.environment = ProcessInfo.processInfo.environment.merging(["FORGE_DIAGNOSTICS": "json"]) { $1 }
        // SwiftPM prints a plugin's own output only after it ends, after its "Plugin ended" line: forge's
        // messages are passed on as diagnostics instead, which SwiftPM prints in order, before that line.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in text.split(separator: "\n") where !line.isEmpty {
            guard line.hasPrefix("{"),
                let diagnostic = try? JSONDecoder().decode(ForgeDiagnostic.self, from: Data(line.utf8))
            else {
                // Progress and other output: remarks.
                Diagnostics.remark(String(line))
                continue
            }
            let severity: Diagnostics.Severity =
                switch diagnostic.severity {
                case "error": .error
                case "warning": .warning
                default: .remark
                }
            Diagnostics.emit(severity, diagnostic.description, file: diagnostic.file, line: diagnostic.line)
        }
        if process.terminationReason == .uncaughtSignal {
            throw ForgePluginError.failed(status: 128 + process.terminationStatus)
        }
        // SwiftPM ends a failed plugin with its own code (1); forge's (documented in the README) is in its last line.
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}

/// A diagnostic as forge writes it with `FORGE_DIAGNOSTICS=json` (the plugin cannot import Forge).
struct ForgeDiagnostic: Decodable {
    var severity: String
    var message: String
    var file: String?
    var line: Int?
    var field: String?
    var item: String?
    var suggestion: String?

    /// The message with what it is about and what to do.
    var description: String {
        var text = message
        if let field, !message.contains(field) { text = "\(field): " + text }
        if let item, !message.contains(item) { text += " (item \(item))" }
        if let suggestion { text += " " + suggestion }
        return text
    }
}
