import Foundation
import GRDB

/// The builds table: one row per run, opened when it starts and closed with its outcome.
extension Manifest {
    package func beginBuild(_ record: BuildRecord) throws(StoreError) -> Int64 {
        try write { db in
            // A build row still 'running' belongs to a process that was killed.
            try db.execute(sql: "UPDATE builds SET outcome = 'cancelled', ended_at = started_at WHERE outcome = 'running'")
            var record = record
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
        }
    }

    package func finishBuild(
        _ id: Int64, outcome: BuildRecord.Outcome, endedAt: String,
        total: Int, synthesized: Int, reused: Int, failed: Int, downloaded: Int = 0
    ) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE builds SET outcome = ?, ended_at = ?, items_total = ?, items_synthesized = ?,
                    items_reused = ?, items_failed = ?, items_downloaded = ? WHERE id = ?
                    """,
                arguments: [outcome.rawValue, endedAt, total, synthesized, reused, failed, downloaded, id])
        }
    }

    /// Records what a build that succeeded was made from and left behind.
    func recordFingerprint(_ fingerprint: String, build id: Int64) throws(StoreError) {
        try write { db in try db.execute(sql: "UPDATE builds SET fingerprint = ? WHERE id = ?", arguments: [fingerprint, id]) }
    }

    /// The settings (JSON) of the newest build that recorded any; nil for a directory no forge of
    /// schema v9 built.
    func lastRecordedSettings() throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT settings FROM builds WHERE settings IS NOT NULL ORDER BY id DESC LIMIT 1")
        }
    }

    package func lastBuild() throws(StoreError) -> BuildRecord? {
        try read { db in try BuildRecord.order(Column("id").desc).fetchOne(db) }
    }
}
