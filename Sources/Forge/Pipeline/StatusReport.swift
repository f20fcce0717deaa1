import Foundation

/// The state of an output directory, read from its manifest: for `forge status`.
package struct StatusReport: Sendable, Equatable {
    package var outputDirectory: String
    package var counts: ManifestCounts
    package var lastBuild: BuildRecord?

    /// Reads the manifest in `directory` without writing anything.
    package static func read(directory: URL) throws -> StatusReport {
        try Manifest.reading(directory: directory) { manifest in
            StatusReport(
                outputDirectory: directory.path, counts: try manifest.statusCounts(),
                lastBuild: try manifest.lastBuild())
        }
    }
}
