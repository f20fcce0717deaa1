import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory forge build recipes/sample.json`:
/// builds the package's own `forge` product and runs it, in the package directory, with the
/// arguments given, so the plugin and the command line are one program.
@main
struct ForgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let build = try packageManager.build(.product("forge"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded else {
            Diagnostics.error(build.logText)
            throw ForgePluginError.buildFailed
        }
        guard let forge = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "forge" }) else {
            throw ForgePluginError.noExecutable
        }
        let process = Process()
        process.executableURL = forge.url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        // SwiftPM prints a plugin's own output only after it ends, after its "Plugin ended" line: forge's
        // messages are passed on as diagnostics instead, which SwiftPM prints in order, before that line.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in text.split(separator: "\n") where !line.isEmpty {
            let message = line.hasPrefix("error: ") ? String(line.dropFirst(7)) : line.hasPrefix("warning: ") ? String(line.dropFirst(9)) : String(line)
            if line.hasPrefix("error: ") || process.terminationStatus != 0 && !line.hasPrefix("warning: ") {
                Diagnostics.error(message)
            } else if line.hasPrefix("warning: ") {
                Diagnostics.warning(message)
            } else {
                Diagnostics.remark(message)
            }
        }
        if process.terminationReason == .uncaughtSignal {
            throw ForgePluginError.failed(status: 128 + process.terminationStatus)
        }
        // SwiftPM ends a failed plugin with its own code (1); forge's (documented in the README) is in its last line.
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
