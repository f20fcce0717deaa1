import Foundation

/// One build's row in the manifest from its start to its end. A recipe's build
/// (``BuildPipeline``) and a narration's import (``NarrationImport``) both begin it here and end it
/// here — as succeeded, failed or cancelled with their counts, and as failed when their work
/// throws — so a row is never left running by a process that is still alive.
struct BuildSession {
    let manifest: Manifest
    let buildID: Int64

    /// What a build's row ends with.
    struct Ending {
        var outcome: BuildRecord.Outcome
        var total: Int
        var synthesized = 0
        var reused = 0
        var failed = 0
        var downloaded = 0
    }

    /// Begins `record` in `manifest`.
    static func begin(_ record: BuildRecord, in manifest: Manifest) throws -> BuildSession {
        BuildSession(manifest: manifest, buildID: try manifest.beginBuild(record))
    }

    /// Ends the row with its outcome and counts.
    func finish(_ ending: Ending) throws {
        try manifest.finishBuild(
            buildID, outcome: ending.outcome, endedAt: Self.timestamp(), total: ending.total,
            synthesized: ending.synthesized,
            reused: ending.reused, failed: ending.failed, downloaded: ending.downloaded)
    }

    /// Ends the row as failed, after the work threw; a failure to write it is not the error reported.
    func abandon(_ ending: Ending) {
        var ending = ending
        ending.outcome = .failed
        try? finish(ending)
    }

    /// The build record's times: ISO 8601, UTC.
    static func timestamp() -> String {
        Date().formatted(.iso8601)
    }
}
