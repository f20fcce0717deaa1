import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory forge build recipes/sample.json`:
/// runs the same `forge` executable, in the package directory, with the arguments given.
@main
struct ForgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "forge")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
            Diagnostics.error("forge \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
            throw ForgePluginError.failed(status: process.terminationStatus)
        }
    }
}

enum ForgePluginError: Error, CustomStringConvertible {
    case failed(status: Int32)

    var description: String {
        switch self {
        case .failed(let status): return "forge exited with status \(status); see its message above."
        }
    }
}
