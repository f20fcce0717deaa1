import Foundation

/// The state of an output directory, read from its manifest: for `forge status`.
public struct StatusReport: Sendable, Equatable {
    public var outputDirectory: String
    public var counts: ManifestCounts
    public var lastBuild: BuildRecord?

    /// Reads the manifest in `directory` without writing anything.
    public static func read(directory: URL) throws -> StatusReport {
        try Manifest.reading(directory: directory) { manifest in
            StatusReport(outputDirectory: directory.path, counts: try manifest.statusCounts(), lastBuild: try manifest.lastBuild())
        }
    }
}
