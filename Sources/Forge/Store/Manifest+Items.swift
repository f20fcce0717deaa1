import Foundation
import GRDB

/// Chapters, items and words: the split, each item's progress and its word timings.
extension Manifest {
    /// Makes the manifest's chapters, items and words match a split. Items whose id is kept
    /// keep their status and objects; removed items are deleted (their objects stay in the
    /// store for reuse). Returns how many item rows were added, changed or removed; nil when
    /// `cancellation` was set meanwhile (a book's first split writes for seconds): then nothing
    /// is written, the transaction is rolled back whole.
    @discardableResult
    package func synchronize(with split: SplitResult, cancellation: CancellationFlag? = nil) throws(StoreError) -> Int?
    {
        do {
            var changes: Int?
            try database.writeWithoutTransaction { db in
                try db.inTransaction {
                    changes = try Self.apply(split, to: db, cancellation: cancellation)
                    return changes == nil ? .rollback : .commit
                }
            }
            return changes
        } catch {
            throw .writeFailed(path: url.path, reason: Self.describe(error))
        }
    }

    private static func apply(_ split: SplitResult, to db: Database, cancellation: CancellationFlag?) throws -> Int? {
        let existing = try ItemRecord.fetchAll(db)
        let byID = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let chapterRows = try Row.fetchAll(
            db, sql: "SELECT ordinal, title, source_path, part FROM chapters ORDER BY ordinal")
        let chaptersMatch =
            chapterRows.count == split.chapters.count
            && zip(chapterRows, split.chapters).allSatisfy {
                ($0["ordinal"] as Int) == $1.ordinal && ($0["title"] as String) == $1.title
                    && ($0["source_path"] as String) == $1.sourcePath
                    && ($0["part"] as String?) == $1.part
            }
        if !chaptersMatch {
            try db.execute(sql: "DELETE FROM chapters")
            for chapter in split.chapters {
                try db.execute(
                    sql: "INSERT INTO chapters (ordinal, title, source_path, part) VALUES (?, ?, ?, ?)",
                    arguments: [chapter.ordinal, chapter.title, chapter.sourcePath, chapter.part])
            }
        }
        var changes = 0
        let keep = Set(split.items.map(\.id))
        for record in existing where !keep.contains(record.id) {
            try record.delete(db)
            changes += 1
        }
        // One statement per item inserts all its words from a JSON array [[text, start, end], …].
        let insertWords = try db.makeStatement(
            sql: """
                INSERT INTO words (item_id, idx, text, char_start, char_end)
                SELECT ?1, key, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
                FROM json_each(?2)
                """)
        // A new item as `ItemRecord(item:)` has it (pending, nothing made yet), bound directly:
        // encoding each record through Codable took a tenth of the split's time.
        let insertItem = try db.makeStatement(
            sql: """
                INSERT INTO items (id, chapter, ordinal, kind, text, source_path, source_start, source_end, status, element_id, character, name)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)
                """)
        // Compiled once: an edit moves the source offsets of every item after it (thousands of rows).
        let updatePlacement = try db.makeStatement(
            sql: """
                UPDATE items SET chapter = ?, ordinal = ?, kind = ?, source_path = ?, source_start = ?, source_end = ?, element_id = ?,
                character = ?, name = ? WHERE id = ?
                """)
        // In the order of the tables' keys (item ids are hashes): new rows then land at the end of
        // each B-tree instead of all over it.
        for (index, item) in split.items.sorted(by: { $0.id < $1.id }).enumerated() {
            if index % 256 == 0, cancellation?.isCancelled == true { return nil }
            if let record = byID[item.id] {
                guard !record.hasSamePlacement(as: item) else { continue }
                try updatePlacement.execute(arguments: [
                    item.chapter, item.ordinal, item.kind.rawValue, item.sourcePath, item.sourceStart, item.sourceEnd,
                    item.elementID, item.character, item.name, item.id,
                ])
            } else {
                try insertItem.execute(arguments: [
                    item.id, item.chapter, item.ordinal, item.kind.rawValue, item.text, item.sourcePath,
                    item.sourceStart, item.sourceEnd,
                    item.elementID, item.character, item.name,
                ])
                let words = item.words
                if !words.isEmpty {
                    try insertWords.execute(arguments: [item.id, Self.wordsJSON(words)])
                }
            }
            changes += 1
        }
        return changes
    }

    static func wordsJSON(_ words: [WordToken]) -> String {
        var json = JSONWriter(escaping: .canonical, capacity: words.count * 24)
        json.array { list in
            for word in words {
                list.array { entry in
                    entry.value(word.text)
                    entry.value(word.start)
                    entry.value(word.end)
                }
            }
        }
        return json.text
    }

    package func items() throws(StoreError) -> [ItemRecord] {
        try read { db in try ItemRecord.order(ItemRecord.Columns.ordinal).fetchAll(db) }
    }

    package func words(of itemID: String) throws(StoreError) -> [WordToken] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT idx, text, char_start, char_end FROM words WHERE item_id = ? ORDER BY idx",
                arguments: [itemID]
            )
            .map { WordToken(index: $0["idx"], text: $0["text"], start: $0["char_start"], end: $0["char_end"]) }
        }
    }

    /// Every item's words, in one query (for aligning many items).
    package func allWords() throws(StoreError) -> [String: [WordToken]] {
        try read { db in
            try Self.wordsByItem(
                Row.fetchCursor(
                    db, sql: "SELECT item_id, idx, text, char_start, char_end FROM words ORDER BY item_id, idx"))
        }
    }

    /// The words of one chapter's items, by item (for aligning a chapter's items as they finish).
    package func words(inChapter chapter: Int) throws(StoreError) -> [String: [WordToken]] {
        try read { db in
            try Self.wordsByItem(
                Row.fetchCursor(
                    db,
                    sql: """
                        SELECT w.item_id, w.idx, w.text, w.char_start, w.char_end
                        FROM words w JOIN items i ON i.id = w.item_id WHERE i.chapter = ? ORDER BY w.item_id, w.idx
                        """, arguments: [chapter]))
        }
    }

    /// Words rows (item_id, idx, text, char_start, char_end, in order) grouped by item.
    private static func wordsByItem(_ rows: RowCursor) throws -> [String: [WordToken]] {
        var words: [String: [WordToken]] = [:]
        while let row = try rows.next() {
            words[row["item_id"], default: []].append(
                WordToken(index: row["idx"], text: row["text"], start: row["char_start"], end: row["char_end"]))
        }
        return words
    }

    /// The chapters, in reading order.
    package func chapters() throws(StoreError) -> [Chapter] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT ordinal, title, source_path, part FROM chapters ORDER BY ordinal")
                .map { Chapter(ordinal: $0[0], title: $0[1], sourcePath: $0[2], part: $0[3]) }
        }
    }

    /// The words of one chapter's items with their timings and confidence (for exports, a chapter at a time).
    package func timedWords(inChapter chapter: Int) throws(StoreError) -> [String: [TimedWord]] {
        try read { db in
            var words: [String: [TimedWord]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT w.item_id, w.idx, w.text, w.char_start, w.char_end, w.start_ms, w.end_ms, w.confidence
                    FROM words w JOIN items i ON i.id = w.item_id WHERE i.chapter = ? ORDER BY w.item_id, w.idx
                    """, arguments: [chapter])
            while let row = try rows.next() {
                let token = WordToken(index: row[1], text: row[2], start: row[3], end: row[4])
                let timing: WordTiming? = (row[5] as Int?).flatMap { start in
                    (row[6] as Int?).map { WordTiming(startMs: start, endMs: $0) }
                }
                words[row[0], default: []].append(TimedWord(token: token, timing: timing, confidence: row[7]))
            }
            return words
        }
    }

    package func timings(of itemID: String) throws(StoreError) -> [WordTiming?] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT start_ms, end_ms FROM words WHERE item_id = ? ORDER BY idx", arguments: [itemID]
            )
            .map { row in
                guard let start: Int = row["start_ms"], let end: Int = row["end_ms"] else { return nil }
                return WordTiming(startMs: start, endMs: end)
            }
        }
    }

    /// Items marked done that have a word without a timing.
    package func itemsWithUntimedWords() throws(StoreError) -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT w.item_id FROM words w JOIN items i ON i.id = w.item_id
                    WHERE i.status = 'done' AND (w.start_ms IS NULL OR w.end_ms IS NULL)
                    """)
        }
    }

    /// Marks items as spoken, so the align stage computes their timings again.
    package func markSpoken(_ itemIDs: [String]) throws(StoreError) {
        guard !itemIDs.isEmpty else { return }
        try write { db in
            typealias Columns = ItemRecord.Columns
            for id in itemIDs {
                try ItemRecord.filter(key: id).filter(Columns.status == ItemStatus.done.rawValue).updateAll(
                    db, Columns.status.set(to: ItemStatus.spoken.rawValue), Columns.alignmentKey.set(to: nil),
                    Columns.alignmentSource.set(to: nil))
            }
        }
    }

    /// Commits a batch of item updates in one transaction.
    package func apply(_ updates: [ItemUpdate], build: Int64) throws(StoreError) {
        guard !updates.isEmpty else { return }
        try write { db in
            // A key's row always describes the file now on disk: an object rewritten after it was lost
            // or repaired replaces the old description.
            let insertObject = try db.cachedStatement(
                sql: """
                    INSERT INTO objects (key, path, role, bytes, sha256, mime_type, duration_ms, sample_rate, created_build, frames)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256,
                    mime_type = excluded.mime_type, duration_ms = excluded.duration_ms, sample_rate = excluded.sample_rate,
                    frames = COALESCE(excluded.frames, CASE WHEN objects.sha256 = excluded.sha256 THEN objects.frames END)
                    """)
            // One statement per item sets every word's timing from a JSON array [[start, end], …].
            let setTimings = try db.cachedStatement(
                sql: """
                    UPDATE words SET start_ms = json_extract(?1, '$[' || idx || '][0]'), end_ms = json_extract(?1, '$[' || idx || '][1]'),
                    confidence = json_extract(?1, '$[' || idx || '][2]')
                    WHERE item_id = ?2
                    """)
            // An item aligned in this batch has every word's timing set below; clearing them first is work for nothing.
            let alignedHere = Set(
                updates.compactMap { if case .aligned(let itemID, _, _, _, _, _) = $0 { itemID } else { nil } })
            for update in updates {
                switch update {
                case .spoken(let itemID, let audio, let events, let voice),
                    .downloaded(let itemID, let audio, let events, let voice, _):
                    for object in [audio, events] {
                        try insertObject.execute(arguments: [
                            object.key, object.path, object.role.rawValue, object.bytes, object.sha256, object.mimeType,
                            object.durationMs, object.sampleRate, build, object.frames,
                        ])
                    }
                    let origin: String? = if case .downloaded = update { ItemRecord.remoteCacheOrigin } else { nil }
                    if case .downloaded(_, _, _, _, let remote?) = update {
                        try Self.recordRemote(audio, cache: remote.cache, signal: remote.signal, in: db)
                    }
                    try db.cachedStatement(
                        sql: """
                            UPDATE items SET status = 'spoken', error = NULL, audio_key = ?, events_key = ?, alignment_key = NULL, alignment_source = NULL,
                            duration_ms = ?, voice = ?, built_by = ?, origin = ? WHERE id = ?
                            """
                    ).execute(arguments: [audio.key, events.key, audio.durationMs, voice, build, origin, itemID])
                    if !alignedHere.contains(itemID) {
                        try db.cachedStatement(
                            sql: "UPDATE words SET start_ms = NULL, end_ms = NULL, confidence = NULL WHERE item_id = ?"
                        )
                        .execute(arguments: [itemID])
                    }
                case .narrated(let itemID, let audio, let voice):
                    try insertObject.execute(arguments: [
                        audio.key, audio.path, audio.role.rawValue, audio.bytes, audio.sha256, audio.mimeType,
                        audio.durationMs, audio.sampleRate, build, audio.frames,
                    ])
                    try db.cachedStatement(
                        sql: """
                            UPDATE items SET status = 'spoken', error = NULL, audio_key = ?, events_key = NULL, alignment_key = NULL,
                            alignment_source = NULL, duration_ms = ?, voice = ?, built_by = ?, origin = NULL WHERE id = ?
                            """
                    ).execute(arguments: [audio.key, audio.durationMs, voice, build, itemID])
                case .aligned(let itemID, let alignmentKey, let source, let timings, let confidences, let object):
                    if let object {
                        try insertObject.execute(arguments: [
                            object.key, object.path, object.role.rawValue, object.bytes, object.sha256, object.mimeType,
                            object.durationMs, object.sampleRate, build, object.frames,
                        ])
                    }
                    var triples = ""
                    for (index, timing) in timings.enumerated() {
                        if index > 0 { triples += "," }
                        let confidence = confidences.flatMap { index < $0.count ? $0[index] : nil }
                        triples +=
                            "[\(timing.startMs),\(timing.endMs),\(confidence.map { String(format: "%.3f", $0) } ?? "null")]"
                    }
                    try setTimings.execute(arguments: ["[\(triples)]", itemID])
                    try db.cachedStatement(
                        sql:
                            "UPDATE items SET status = 'done', error = NULL, alignment_key = ?, alignment_source = ? WHERE id = ?"
                    )
                    .execute(arguments: [alignmentKey, source.rawValue, itemID])
                case .failed(let itemID, let error):
                    try db.cachedStatement(
                        sql: "UPDATE items SET status = 'failed', error = ?, built_by = ? WHERE id = ?"
                    )
                    .execute(arguments: [error, build, itemID])
                }
            }
        }
    }

    /// Marks items pending again (their audio is out of date), keeping their words.
    package func markPending(_ itemIDs: [String]) throws(StoreError) {
        guard !itemIDs.isEmpty else { return }
        try write { db in
            for id in itemIDs { try Self.resetToPending(id, in: db) }
        }
    }

    static func resetToPending(_ itemID: String, in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE items SET status = 'pending', audio_key = NULL, events_key = NULL, alignment_key = NULL, alignment_source = NULL,
                duration_ms = NULL, origin = NULL WHERE id = ?
                """,
            arguments: [itemID])
        try db.execute(
            sql: "UPDATE words SET start_ms = NULL, end_ms = NULL, confidence = NULL WHERE item_id = ?",
            arguments: [itemID])
    }
}
