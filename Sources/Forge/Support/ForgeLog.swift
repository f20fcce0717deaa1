import Logging

/// The library's diagnostic log (swift-log): phase timings, worker restarts and what command
/// engines write on standard error. Silent unless the program bootstraps swift-log at a verbose
/// level — forge does with `--verbose` or `FORGE_LOG_LEVEL`, which its worker processes inherit.
package enum ForgeLog {
    /// The environment variable that sets the level of forge and its workers (`debug`, `info`, …).
    package static let levelVariable = "FORGE_LOG_LEVEL"

    private static let logger = Logger(label: "forge")

    static func debug(_ message: @autoclosure () -> String) { logger.debug("\(message())") }
    static func info(_ message: @autoclosure () -> String) { logger.info("\(message())") }
    static func notice(_ message: @autoclosure () -> String) { logger.notice("\(message())") }
}
