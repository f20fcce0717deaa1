import Foundation
import GRDB

/// The builds table: one row per run, opened when it starts and closed with its outcome.
extension Manifest {
    package func beginBuild(_ record: BuildRecord) throws(StoreError) -> Int64 {
        try write { db in
            // A build row still 'running' belongs to a process that was killed.
            typealias Columns = BuildRecord.Columns
            try BuildRecord.filter(Columns.outcome == BuildRecord.Outcome.running)
                .updateAll(
                    db, Columns.outcome.set(to: BuildRecord.Outcome.cancelled),
                    Columns.endedAt.set(to: Columns.startedAt))
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
            typealias Columns = BuildRecord.Columns
            try BuildRecord.filter(key: id).updateAll(
                db, Columns.outcome.set(to: outcome), Columns.endedAt.set(to: endedAt),
                Columns.itemsTotal.set(to: total),
                Columns.itemsSynthesized.set(to: synthesized), Columns.itemsReused.set(to: reused),
                Columns.itemsFailed.set(to: failed),
                Columns.itemsDownloaded.set(to: downloaded))
        }
    }

    /// Records what a build that succeeded was made from and left behind.
    func recordFingerprint(_ fingerprint: String, build id: Int64) throws(StoreError) {
        try write { db in
            _ = try BuildRecord.filter(key: id).updateAll(db, BuildRecord.Columns.fingerprint.set(to: fingerprint))
        }
    }

    /// The settings (JSON) of the newest build that recorded any; nil for a directory no forge of
    /// schema v9 built.
    func lastRecordedSettings() throws(StoreError) -> String? {
        try read { db in
            typealias Columns = BuildRecord.Columns
            return try BuildRecord.select(Columns.settings, as: String.self).filter(Columns.settings != nil).order(
                Columns.id.desc
            ).fetchOne(db)
        }
    }

    package func lastBuild() throws(StoreError) -> BuildRecord? {
        try read { db in try BuildRecord.order(BuildRecord.Columns.id.desc).fetchOne(db) }
    }
}
