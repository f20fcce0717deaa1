import Foundation
import GRDB

extension Manifest {
    /// Measured chapter levels by key.
    func storedLevels() throws(StoreError) -> [String: AudioLevels] {
        try read { db in
            var levels: [String: AudioLevels] = [:]
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            for row in try Row.fetchAll(db, sql: "SELECT key, levels FROM chapter_levels") {
                let text: String = row[1]
                if let decoded = try? decoder.decode(AudioLevels.self, from: Data(text.utf8)) {
                    levels[row[0]] = decoded
                }
            }
            return levels
        }
    }

    /// Records chapters' levels under their keys. `variant` names the settings they were measured
    /// with (mastering, pauses, meter): earlier levels of the same chapters and variant are
    /// forgotten, and so are those of chapters the book no longer has.
    func recordLevels(_ levels: [(chapter: Int, key: String, levels: AudioLevels)], variant: String, chapters: Int)
        throws(StoreError)
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let rows = levels.map { entry in
            (
                entry.chapter, entry.key,
                String(decoding: (try? encoder.encode(entry.levels)) ?? Data("{}".utf8), as: UTF8.self)
            )
        }
        let now = Date().formatted(.iso8601)
        try write { db in
            for (chapter, key, text) in rows {
                try db.execute(
                    sql: "DELETE FROM chapter_levels WHERE chapter = ? AND variant = ? AND key != ?",
                    arguments: [chapter, variant, key])
                try db.execute(
                    sql:
                        "INSERT OR REPLACE INTO chapter_levels (key, chapter, variant, levels, measured_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [key, chapter, variant, text, now])
            }
            try db.execute(sql: "DELETE FROM chapter_levels WHERE chapter > ?", arguments: [chapters])
        }
    }
}
