import Foundation
import GRDB

/// Audio objects recorded without their bytes (schema v17): the items are done, their layout,
/// keys and measures known, and the samples are in a remote cache until something needs them.
extension Manifest {
    /// An audio object whose bytes are in a remote cache only.
    package struct RemoteObject: Sendable, Equatable {
        package var object: StoredObject
        /// The cache's name (its URL, without credentials).
        package var cache: String
        /// What the cache's entry says the audio measures.
        package var signal: ItemSignal
    }

    /// Every audio object whose bytes are in a remote cache only, by key.
    package func remoteObjects() throws(StoreError) -> [String: RemoteObject] {
        try read { db in
            var found: [String: RemoteObject] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(Self.objectColumns()), remote_objects.cache AS remote_cache, remote_objects.signal AS remote_signal
                    FROM remote_objects JOIN objects ON objects.key = remote_objects.key
                    """)
            while let row = try rows.next() {
                let object = Self.object(from: row)
                let text: String = row["remote_signal"]
                guard let signal = try? JSONDecoder().decode(ItemSignal.self, from: Data(text.utf8)) else { continue }
                found[object.key] = RemoteObject(object: object, cache: row["remote_cache"], signal: signal)
            }
            return found
        }
    }

    /// The keys of the audio objects whose bytes are in a remote cache only.
    package func remoteObjectKeys() throws(StoreError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT key FROM remote_objects")) }
    }

    /// How many audio objects are in a remote cache only, and their bytes.
    package func remoteObjectTotals() throws(StoreError) -> (objects: Int, bytes: Int) {
        try read { db in try Self.remoteObjectTotals(in: db) }
    }

    static func remoteObjectTotals(in db: Database) throws -> (objects: Int, bytes: Int) {
        let row = try Row.fetchOne(
            db,
            sql:
                "SELECT COUNT(*), COALESCE(SUM(objects.bytes), 0) FROM remote_objects JOIN objects ON objects.key = remote_objects.key"
        )
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    /// Records that these objects' bytes are now in the store (fetched), or that their items are
    /// to be made again (the cache lost them): either way they are no longer remote.
    package func forgetRemote(_ keys: [String]) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try write { db in
            let delete = try db.makeStatement(sql: "DELETE FROM remote_objects WHERE key = ?")
            for key in keys { try delete.execute(arguments: [key]) }
        }
    }

    static func recordRemote(_ object: StoredObject, cache: String, signal: ItemSignal, in db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(signal), as: UTF8.self)
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO remote_objects (key, cache, signal) VALUES (?, ?, ?)")
            .execute(arguments: [object.key, cache, text])
    }
}
