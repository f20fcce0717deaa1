import Forge

/// `forge status --json`: the manifest's counts, failures and last build.
struct StatusReportJSON: Encodable {
    var output: String
    var items: Int
    var done: Int
    var spoken: Int
    var failed: Int
    var pending: Int
    var downloaded: Int
    var chapters: Int
    var words: Int
    var audioMs: Int
    var objects: Int
    var objectBytes: Int
    /// Audio objects whose bytes are in the remote cache only, and their bytes.
    var remoteObjects: Int
    var remoteBytes: Int
    var failures: [FailedItemJSON]
    var lastBuild: LastBuild?

    struct LastBuild: Encodable {
        var id: Int64
        var outcome: String
        var startedAt: String
        /// Null while the build runs (or after it was killed).
        var endedAt: JSONNull<String>
        var toolVersion: String
        var engine: String
        var engineVersion: String
        var synthesized: Int
        var reused: Int
        var failed: Int
        var downloaded: Int
    }

    init(_ report: StatusReport) {
        let counts = report.counts
        output = report.outputDirectory
        items = counts.items
        done = counts.done
        spoken = counts.spoken
        failed = counts.failed
        pending = counts.pending
        downloaded = counts.downloaded
        chapters = counts.chapters
        words = counts.words
        audioMs = counts.audioMs
        objects = counts.objects
        objectBytes = counts.objectBytes
        remoteObjects = counts.remoteObjects
        remoteBytes = counts.remoteBytes
        failures = counts.failures.map { FailedItemJSON(id: $0.id, error: $0.error) }
        lastBuild = report.lastBuild.map { build in
            LastBuild(
                id: build.id ?? 0, outcome: build.outcome.rawValue, startedAt: build.startedAt,
                endedAt: JSONNull(build.endedAt),
                toolVersion: build.toolVersion, engine: build.engine, engineVersion: build.engineVersion,
                synthesized: build.itemsSynthesized,
                reused: build.itemsReused, failed: build.itemsFailed, downloaded: build.itemsDownloaded)
        }
    }
}
