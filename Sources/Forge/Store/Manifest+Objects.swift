import Foundation
import GRDB

/// The objects table: what the store holds, by key.
extension Manifest {
    /// The recorded objects with the given keys.
    package func objects(withKeys keys: [String]) throws(StoreError) -> [String: StoredObject] {
        guard !keys.isEmpty else { return [:] }
        return try read { db in
            var found: [String: StoredObject] = [:]
            for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT \(Self.objectColumns()) FROM objects WHERE key IN (\(marks))",
                    arguments: StatementArguments(chunk))
                for row in rows {
                    let object = Self.object(from: row)
                    found[object.key] = object
                }
            }
            return found
        }
    }

    /// The audio object of every item that has one, by key: what a layout reads, in one query.
    func itemAudioObjects() throws(StoreError) -> [String: StoredObject] {
        try read { db in
            var found: [String: StoredObject] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(Self.objectColumns()) FROM items JOIN objects ON objects.key = items.audio_key")
            while let row = try rows.next() {
                let object = Self.object(from: row)
                found[object.key] = object
            }
            return found
        }
    }

    /// Every object the manifest records.
    package func allObjects() throws(StoreError) -> [StoredObject] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.objectColumns()) FROM objects ORDER BY path").map(
                Self.object(from:))
        }
    }

    /// The paths of every object recorded, in order (for a cheap look at their files).
    func objectPaths() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT path FROM objects ORDER BY path") }
    }

    func objectKeys(atPath path: String) throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT key FROM objects WHERE path = ?", arguments: [path]) }
    }

    /// Drops the records of objects that are gone or bad, and sends the items using them back to pending.
    package func forgetObjects(_ keys: [String]) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try write { db in
            for key in keys {
                let items = try String.fetchAll(
                    db, sql: "SELECT id FROM items WHERE audio_key = ?1 OR events_key = ?1", arguments: [key])
                for id in items { try Self.resetToPending(id, in: db) }
                try db.execute(sql: "DELETE FROM objects WHERE key = ?", arguments: [key])
            }
        }
    }

    /// An objects row, read by column name.
    /// The objects table's columns in the order ``object(from:)`` reads them, qualified by `table`.
    static func objectColumns(of table: String = "objects") -> String {
        ["key", "path", "role", "bytes", "sha256", "mime_type", "duration_ms", "sample_rate", "frames"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The object in a row that starts with ``objectColumns(of:)`` (read by position: a layout
    /// reads one per item, and a lookup by name costs more than the rest of the row).
    static func object(from row: Row) -> StoredObject {
        StoredObject(
            key: row[0], path: row[1], role: StoredObject.Role(rawValue: row[2]) ?? .audio,
            bytes: row[3], sha256: row[4], mimeType: row[5], durationMs: row[6], sampleRate: row[7], frames: row[8])
    }

    /// Records audio objects' lengths in samples, read from their headers (objects made before
    /// lengths were recorded, or in a lossy format), so the next layout need not read them again.
    package func recordFrames(_ frames: [String: Int]) throws(StoreError) {
        guard !frames.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: "UPDATE objects SET frames = ? WHERE key = ?")
            for (key, count) in frames { try statement.execute(arguments: [count, key]) }
        }
    }

    /// Records objects a worker made outside a build's items (the ACX credits): kept like any
    /// object, referred to by no item.
    package func recordObjects(_ objects: [StoredObject]) throws(StoreError) {
        guard !objects.isEmpty else { return }
        try write { db in
            for object in objects {
                try db.execute(
                    sql: """
                        INSERT INTO objects (key, path, role, bytes, sha256, mime_type, duration_ms, sample_rate, created_build, frames)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
                        ON CONFLICT(key) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256
                        """,
                    arguments: [
                        object.key, object.path, object.role.rawValue, object.bytes, object.sha256, object.mimeType,
                        object.durationMs,
                        object.sampleRate, object.frames,
                    ])
            }
        }
    }

    /// Records an encoded chapter made by an export (no build made it; no item refers to it).
    func recordEncoded(_ object: StoredObject) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO objects (key, path, role, bytes, sha256, mime_type, duration_ms, sample_rate, created_build, frames)
                    VALUES (?, ?, 'encoded', ?, ?, ?, ?, ?, NULL, ?)
                    ON CONFLICT(key) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256
                    """,
                arguments: [
                    object.key, object.path, object.bytes, object.sha256, object.mimeType, object.durationMs,
                    object.sampleRate, object.frames,
                ])
        }
    }

    /// Every encoded chapter the store holds.
    func encodedObjects() throws(StoreError) -> [StoredObject] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.objectColumns()) FROM objects WHERE role = 'encoded' ORDER BY path"
            ).map(
                Self.object(from:))
        }
    }

    /// Drops the records of encoded chapters (their files are removed by the caller).
    func forgetEncoded(_ keys: [String]) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try write { db in
            for key in keys {
                try db.execute(sql: "DELETE FROM objects WHERE key = ? AND role = 'encoded'", arguments: [key])
            }
        }
    }
}
