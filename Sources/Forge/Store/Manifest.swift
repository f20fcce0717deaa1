import Foundation
import GRDB

/// `manifest.sqlite`: the SQLite description of an output directory (WAL mode, versioned schema).
///
/// Only the orchestrating forge process writes it; worker processes write objects only.
/// Its tables are documented for apps in `docs/manifest.md`.
package final class Manifest: Sendable {
    package static let fileName = "manifest.sqlite"

    package let url: URL
    let database: DatabaseQueue

    /// Opens (creating and migrating if needed) the manifest in `directory`.
    package init(directory: URL, create: Bool = true) throws(StoreError) {
        url = directory.appendingPathComponent(Self.fileName)
        // SQLite would follow a link planted at the manifest or its journal files.
        let owned = OwnedDirectory(root: directory)
        for name in [Self.fileName, Self.fileName + "-wal", Self.fileName + "-shm"] {
            try owned.check(name, lastIsFile: true)
        }
        if !create && !FileManager.default.fileExists(atPath: url.path) {
            throw .notAnOutputDirectory(path: directory.path)
        }
        if create && !FileManager.default.fileExists(atPath: url.path) {
            try Self.createMigrated(at: url)
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.readonly = !create
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL is durable across process crashes; objects are fsynced separately.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            database = try DatabaseQueue(path: url.path, configuration: configuration)
            let migrator = ManifestSchema.migrator
            let known = Set(migrator.migrations)
            let applied = try database.read { db in try migrator.appliedIdentifiers(db) }
            if let unknown = applied.subtracting(known).sorted().last {
                throw StoreError.manifestTooNew(path: url.path, found: unknown)
            }
            if create {
                try migrator.migrate(database)
            } else if try !database.read({ db in try migrator.hasCompletedMigrations(db) }) {
                try Self.migrate(at: url)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .manifestUnreadable(path: url.path, reason: Self.describe(error))
        }
    }

    /// Writes a consistent copy of the manifest to `url` (a new file), made by SQLite itself, whose
    /// bytes depend only on what the manifest holds.
    package func copy(to url: URL) throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [url.path])
        }
        // The copy's schema cookie would count every schema change the directory ever saw — GRDB
        // creates and drops a table whenever it opens a manifest that has no write-ahead log — so
        // two packs of the same build differed by the commands run between them. Nothing else has
        // the copy open, so setting the cookie is safe.
        let copy = try DatabaseQueue(path: url.path)
        try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA schema_version = 1") }
        try copy.close()
    }

    /// Opens the manifest read-only for `body` and leaves the directory as it was: SQLite creates
    /// `-wal` and `-shm` files for any reader of a WAL database, which a command that writes
    /// nothing (`forge plan`) removes again when no forge holds the directory (they are empty then).
    package static func reading<T>(directory: URL, _ body: (Manifest) throws -> T) throws -> T {
        let owned = OwnedDirectory(root: directory)
        let created = [fileName + "-wal", fileName + "-shm"].filter {
            OwnedDirectory.entry(at: owned.url($0).path) == .missing
        }
        defer {
            let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 {
                if flock(folder, LOCK_EX | LOCK_NB) == 0 {
                    for name in created where OwnedDirectory.entry(at: owned.url(name).path) == .file {
                        unlink(owned.url(name).path)
                    }
                    flock(folder, LOCK_UN)
                }
                close(folder)
            }
        }
        let manifest = try Manifest(directory: directory, create: false)
        defer { try? manifest.database.close() }
        return try body(manifest)
    }

    /// Creates a new manifest whole: migrated under a temporary name, then renamed into place, so
    /// a process killed while creating it leaves either no manifest or a complete one, never an
    /// empty database that readers would find without tables.
    static func createMigrated(at url: URL) throws(StoreError) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(fileName).\(getpid()).tmp")
        do {
            // Leftovers of a creation killed earlier, by any process.
            let folder = url.deletingLastPathComponent()
            try OwnedDirectory(root: folder).removeFiles(in: "") { $0.hasPrefix(".\(fileName).") }
            let queue = try DatabaseQueue(path: temporary.path)
            try ManifestSchema.migrator.migrate(queue)
            try queue.close()
            guard rename(temporary.path, url.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .writeFailed(path: url.path, reason: describe(error))
        }
    }

    /// Brings a manifest written by an older forge up to this schema for a read-only command
    /// (`status`, `plan`, `fsck`, `export`, packs), through a writable connection of its own; the
    /// read-only one sees the new schema. Migrations are SQLite transactions: a stop leaves the old
    /// schema whole.
    private static func migrate(at url: URL) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try ManifestSchema.migrator.migrate(queue)
        try queue.close()
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return ErrorReason.text(error)
    }

    func write<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.write(updates)
        } catch {
            throw .writeFailed(path: url.path, reason: Self.describe(error))
        }
    }

    func read<T>(_ value: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.read(value)
        } catch {
            throw .manifestUnreadable(path: url.path, reason: Self.describe(error))
        }
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the database is sound.
    package func integrityCheck() throws(StoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    /// How many items there are, how many are done, and their audio: three figures from one pass
    /// over the items (``statusCounts()`` also counts every word and object).
    func itemTotals() throws(StoreError) -> (items: Int, done: Int, audioMs: Int) {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS n, COALESCE(SUM(status = 'done'), 0) AS done,
                    COALESCE(SUM(CASE WHEN status IN ('done', 'spoken') THEN duration_ms ELSE 0 END), 0) AS ms FROM items
                    """)
            return (row?["n"] ?? 0, row?["done"] ?? 0, row?["ms"] ?? 0)
        }
    }

    /// Counts for `forge status`.
    package func statusCounts() throws(StoreError) -> ManifestCounts {
        try read { db in
            var counts = try Self.itemCounts(in: db)
            counts.chapters = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chapters") ?? 0
            counts.downloaded =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM items WHERE origin = ? AND status IN ('done', 'spoken')",
                    arguments: [ItemRecord.remoteCacheOrigin]) ?? 0
            counts.words = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM words") ?? 0
            counts.objects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM objects") ?? 0
            counts.objectBytes = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM objects") ?? 0
            (counts.remoteObjects, counts.remoteBytes) = try Self.remoteObjectTotals(in: db)
            counts.failures = try Row.fetchAll(
                db, sql: "SELECT id, error FROM items WHERE status = 'failed' ORDER BY ordinal LIMIT 20"
            ).map { (id: $0["id"], error: $0["error"] ?? "") }
            return counts
        }
    }

    /// The items' counts by status and their audio's length, without the words', objects' and
    /// failures' counts (a build's summary needs only these; counting every word reads a table the
    /// size of the book).
    func itemCounts() throws(StoreError) -> ManifestCounts {
        try read { db in try Self.itemCounts(in: db) }
    }

    private static func itemCounts(in db: Database) throws -> ManifestCounts {
        var counts = ManifestCounts()
        for row in try Row.fetchAll(
            db, sql: "SELECT status, COUNT(*) AS n, COALESCE(SUM(duration_ms), 0) AS ms FROM items GROUP BY status")
        {
            let count: Int = row["n"]
            switch ItemStatus(rawValue: row["status"]) {
            case .done?:
                counts.done = count
                counts.audioMs += row["ms"] as Int
            case .spoken?:
                counts.spoken = count
                counts.audioMs += row["ms"] as Int
            case .failed?: counts.failed = count
            case .pending?, nil: counts.pending += count
            }
        }
        return counts
    }
}
