import Foundation
import GRDB

extension Manifest {
    /// A stored chunk: its key and what was found in it.
    struct StoredChunk {
        var key: String
        /// The size, inode and change time of each audio file it heard, when it was transcribed.
        var files: String?
        var report: ChunkReport
    }

    /// Every transcribed chunk, by chapter and start.
    /// How many verification chunks are recorded.
    func chunkCount() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? 0 }
    }

    func storedChunks() throws(StoreError) -> [ChunkPosition: StoredChunk] {
        try read { db in
            var chunks: [ChunkPosition: StoredChunk] = [:]
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT chapter, start_ms, end_ms, word_error_rate, reference_words, errors, flagged_items, key, files FROM chunks"
            ) {
                let report = ChunkReport(
                    chapter: row[0], startMs: row[1], endMs: row[2], wordErrorRate: row[3], referenceWords: row[4],
                    errors: row[5],
                    flaggedItems: Self.decodeFlagged(row[6]), transcribed: false)
                chunks[ChunkPosition(chapter: row[0], startMs: row[1])] = StoredChunk(
                    key: row[7], files: row[8], report: report)
            }
            return chunks
        }
    }

    /// Records one transcribed chunk (replacing what was there) with the sentences heard in it.
    func recordChunk(
        _ report: ChunkReport, key: String, files: String, recognizer: String, passed: Bool,
        sentences: [(startMs: Int, endMs: Int, text: String)], build: Int64?
    ) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM chunks WHERE chapter = ? AND start_ms = ?",
                arguments: [report.chapter, report.startMs])
            try db.execute(
                sql: """
                    INSERT INTO chunks (chapter, start_ms, end_ms, status, word_error_rate, reference_words, errors, flagged_items, recognizer, key, transcribed_by, files)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    report.chapter, report.startMs, report.endMs, passed ? "passed" : "flagged", report.wordErrorRate,
                    report.referenceWords,
                    report.errors, Self.encodeFlagged(report.flaggedItems), recognizer, key, build, files,
                ])
            let insert = try db.cachedStatement(
                sql:
                    "INSERT INTO transcript_sentences (chapter, chunk_start_ms, start_ms, end_ms, text) VALUES (?, ?, ?, ?, ?)"
            )
            for sentence in sentences {
                try insert.execute(arguments: [
                    report.chapter, report.startMs, sentence.startMs, sentence.endMs, sentence.text,
                ])
            }
        }
    }

    /// Records that a chunk's audio files, found changed on disk (a copied or restored output
    /// directory), still hold the content it was transcribed from.
    func updateChunkFiles(_ position: ChunkPosition, files: String) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "UPDATE chunks SET files = ? WHERE chapter = ? AND start_ms = ?",
                arguments: [files, position.chapter, position.startMs])
        }
    }

    /// Removes chunks that no longer exist on any chapter's timeline (a chapter got shorter).
    func removeChunks(except positions: Set<ChunkPosition>) throws(StoreError) {
        try write { db in
            for row in try Row.fetchAll(db, sql: "SELECT chapter, start_ms FROM chunks")
            where !positions.contains(ChunkPosition(chapter: row[0], startMs: row[1])) {
                try db.execute(
                    sql: "DELETE FROM chunks WHERE chapter = ? AND start_ms = ?",
                    arguments: [row[0], row[1]] as StatementArguments)
            }
        }
    }

    /// The transcript of a chunk, in order.
    package func transcript(chapter: Int, chunkStartMs: Int) throws(StoreError) -> [(
        startMs: Int, endMs: Int, text: String
    )] {
        try read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT start_ms, end_ms, text FROM transcript_sentences WHERE chapter = ? AND chunk_start_ms = ? ORDER BY start_ms",
                arguments: [chapter, chunkStartMs]
            ).map { (startMs: $0[0], endMs: $0[1], text: $0[2]) }
        }
    }

    static func encodeFlagged(_ items: [ChunkReport.FlaggedItem]) -> String {
        var json = JSONWriter(escaping: .canonical, sortedKeys: false)
        json.array { list in
            for item in items {
                list.object { entry in
                    entry.field("item", item.itemID)
                    entry.array("missing") { words in for word in item.missingWords { words.value(word) } }
                    if !item.extraWords.isEmpty {
                        entry.array("extra") { words in for word in item.extraWords { words.value(word) } }
                    }
                }
            }
        }
        return json.text
    }

    static func decodeFlagged(_ text: String) -> [ChunkReport.FlaggedItem] {
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            return []
        }
        return array.compactMap { entry in
            guard let id = entry["item"] as? String else { return nil }
            return ChunkReport.FlaggedItem(
                itemID: id, missingWords: entry["missing"] as? [String] ?? [],
                extraWords: entry["extra"] as? [String] ?? [])
        }
    }
}
