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
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
            throw ForgePluginError.failed(status: process.terminationStatus)
        }
    }
}
