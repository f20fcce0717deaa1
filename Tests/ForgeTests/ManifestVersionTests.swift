import Foundation
import GRDB
import Testing

@testable import Forge

/// Output directories written by older forges open with every command: their manifests are
/// migrated on open, keeping what they describe.
@Suite("Manifests from older versions", .serialized)
struct ManifestVersionTests {
    /// Columns each table had in v1; every later schema keeps them, so a v1 copy of a current
    /// manifest is an old manifest with real content.
    static let v1Columns = [
        "builds":
            "id, recipe_path, recipe_hash, tool_version, engine, engine_version, command_line, stages, started_at, ended_at, outcome, items_total, items_synthesized, items_reused, items_failed",
        "chapters": "ordinal, title, source_path",
        "objects": "key, path, role, bytes, sha256, mime_type, duration_ms, sample_rate, created_build",
        "items":
            "id, chapter, ordinal, kind, text, source_path, source_start, source_end, status, error, audio_key, events_key, alignment_key, duration_ms, voice, built_by",
        "words": "item_id, idx, text, char_start, char_end, start_ms, end_ms",
    ]

    @Test func everyReadOnlyCommandOpensAManifestOfEachOlderVersion() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        let current = project.directory.file("current.sqlite")
        try FileManager.default.copyItem(at: project.output.appendingPathComponent(Manifest.fileName), to: current)
        let itemsBefore = try project.manifest().items().count
        let migrator = ManifestSchema.migrator
        for version in migrator.migrations.dropLast() {
            let path = project.output.appendingPathComponent(Manifest.fileName).path
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            let old = try DatabaseQueue(path: path)
            try migrator.migrate(old, upTo: version)
            try old.inDatabase { db in
                try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current.path])
                for table in ["builds", "chapters", "objects", "items", "words"] {
                    let columns = Self.v1Columns[table]!
                    let filter = table == "objects" ? " WHERE role IN ('audio', 'events')" : ""
                    try db.execute(
                        sql: "INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM current.\(table)\(filter)")
                }
                try db.execute(sql: "DETACH DATABASE current")
            }
            try old.close()

            for command in [
                ["status", "out"], ["plan", "recipe.json"], ["fsck", "out"], ["export", "out", "--format", "json"],
                ["export", "out", "--pack", "pack.zip"],
            ] {
                let result = try project.forge(command)
                #expect(
                    result.status == 0,
                    "forge \(command.joined(separator: " ")) on a \(version) manifest: \(result.text) \(result.errors)")
                #expect(!result.errors.contains("no such column"), "\(version): \(result.errors)")
            }
            let migrated = try DatabaseQueue(path: path)
            #expect(try migrated.read { db in try migrator.hasCompletedMigrations(db) }, "\(version) was not migrated")
            try migrated.close()
            #expect(try project.manifest().items().count == itemsBefore, "\(version): items lost in migration")
        }
    }
}
