import Forge
import Foundation
import Logging

/// Sends the library's swift-log messages to standard error at the level `FORGE_LOG_LEVEL` names
/// (`--verbose` sets it to `info`, and worker processes inherit it); `warning` otherwise.
enum LogSetup {
    static func bootstrap(verbose: Bool) {
        if verbose && ProcessInfo.processInfo.environment[ForgeLog.levelVariable] == nil {
            setenv(ForgeLog.levelVariable, "info", 1)
        }
        let name = ProcessInfo.processInfo.environment[ForgeLog.levelVariable]?.lowercased() ?? ""
        let level = Logger.Level(rawValue: name) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
