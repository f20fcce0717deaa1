import GRDB

/// What an output directory has shared with remote caches (schema v10).
extension Manifest {
    /// An item's speech objects, as a remote cache entry describes them.
    package struct SharedSpeech: Sendable, Equatable {
        package var audio: StoredObject
        package var events: StoredObject
        package var voice: String
    }

    /// Records that the cache at `cache` now holds the entries of these audio keys.
    func recordUploads(_ audioKeys: [String], cache: String) throws(StoreError) {
        guard !audioKeys.isEmpty else { return }
        try write { db in
            let insert = try db.makeStatement(
                sql: "INSERT OR IGNORE INTO remote_uploads (cache, audio_key) VALUES (?, ?)")
            for key in audioKeys { try insert.execute(arguments: [cache, key]) }
        }
    }

    /// Synthesized items (done or spoken, with events) whose entries the cache at `cache` is not
    /// known to hold: uploads a stopped build did not finish, or made before the cache was configured.
    func speechAwaitingUpload(cache: String) throws(StoreError) -> [SharedSpeech] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT items.audio_key, items.events_key, items.voice FROM items
                    WHERE items.status IN ('done', 'spoken') AND items.events_key IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM remote_uploads WHERE remote_uploads.cache = ? AND remote_uploads.audio_key = items.audio_key)
                    ORDER BY items.ordinal
                    """, arguments: [cache])
            var seen = Set<String>()
            var shared: [SharedSpeech] = []
            for row in rows {
                let audioKey: String = row[0]
                let eventsKey: String = row[1]
                guard seen.insert(audioKey).inserted,
                    let audio = try Row.fetchOne(
                        db, sql: "SELECT \(Self.objectColumns()) FROM objects WHERE key = ?", arguments: [audioKey]
                    )
                    .map(Self.object(from:)),
                    let events = try Row.fetchOne(
                        db, sql: "SELECT \(Self.objectColumns()) FROM objects WHERE key = ?", arguments: [eventsKey]
                    ).map(Self.object(from:))
                else { continue }
                shared.append(SharedSpeech(audio: audio, events: events, voice: row[2] ?? ""))
            }
            return shared
        }
    }

    /// How many synthesized items' entries the cache at `cache` is not known to hold.
    func countAwaitingUpload(cache: String) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(DISTINCT items.audio_key) FROM items
                    WHERE items.status IN ('done', 'spoken') AND items.events_key IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM remote_uploads WHERE remote_uploads.cache = ? AND remote_uploads.audio_key = items.audio_key)
                    """, arguments: [cache]) ?? 0
        }
    }
}
