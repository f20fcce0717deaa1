import Foundation
import GRDB

/// Where a narration and its text agree (schema v12), as `forge align narration --audio` found it.
extension Manifest {
    /// One span of a narration, with its words named by item and index in the item.
    package struct NarrationSpanRow: Sendable, Equatable {
        package var kind: NarrationSpan.Kind
        package var startMs: Int
        package var endMs: Int
        /// The first and last word (item id, index in the item); nil for audio without text.
        package var firstWord: (item: String, index: Int)?
        package var lastWord: (item: String, index: Int)?
        /// The span's text (shortened in the middle when long); nil for audio without text.
        package var text: String?

        package init(
            kind: NarrationSpan.Kind, startMs: Int, endMs: Int, firstWord: (item: String, index: Int)?,
            lastWord: (item: String, index: Int)?, text: String?
        ) {
            self.kind = kind
            self.startMs = startMs
            self.endMs = endMs
            self.firstWord = firstWord
            self.lastWord = lastWord
            self.text = text
        }

        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.kind == rhs.kind && lhs.startMs == rhs.startMs && lhs.endMs == rhs.endMs && lhs.text == rhs.text
                && lhs.firstWord?.item == rhs.firstWord?.item && lhs.firstWord?.index == rhs.firstWord?.index
                && lhs.lastWord?.item == rhs.lastWord?.item && lhs.lastWord?.index == rhs.lastWord?.index
        }
    }

    /// Replaces the recorded narration spans.
    func recordNarrationSpans(_ spans: [NarrationSpanRow]) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM narration_spans")
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO narration_spans (idx, kind, start_ms, end_ms, first_item, first_word, last_item, last_word, text)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for (index, span) in spans.enumerated() {
                try insert.execute(arguments: [
                    index, span.kind.rawValue, span.startMs, span.endMs, span.firstWord?.item, span.firstWord?.index,
                    span.lastWord?.item, span.lastWord?.index, span.text,
                ])
            }
        }
    }

    /// The recorded narration spans, in the recording's order; empty for a build.
    package func narrationSpans() throws(StoreError) -> [NarrationSpanRow] {
        try read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT kind, start_ms, end_ms, first_item, first_word, last_item, last_word, text FROM narration_spans ORDER BY idx"
            ).map { row in
                let first: (item: String, index: Int)? = (row[3] as String?).flatMap { item in
                    (row[4] as Int?).map { (item, $0) }
                }
                let last: (item: String, index: Int)? = (row[5] as String?).flatMap { item in
                    (row[6] as Int?).map { (item, $0) }
                }
                return NarrationSpanRow(
                    kind: NarrationSpan.Kind(rawValue: row[0]) ?? .matched, startMs: row[1], endMs: row[2],
                    firstWord: first, lastWord: last, text: row[7])
            }
        }
    }
}

/// The windows of a narration alignment in progress (schema v13), so a stopped run resumes.
extension Manifest {
    /// Saves the window `index` of the alignment keyed `key`, in its own transaction.
    func recordNarrationWindow(key: String, index: Int, _ checkpoint: NarrationCheckpoint) throws(StoreError) {
        let placements =
            (try? JSONEncoder().encode(checkpoint.placements)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO narration_windows (alignment_key, idx, cursor, next_word, speech_frame, speech, first_word, placements)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    key, index, checkpoint.cursor, checkpoint.nextWord, checkpoint.speechFrame,
                    Data(checkpoint.speech.map { $0 ? 1 : 0 }),
                    checkpoint.firstWord, placements,
                ])
        }
    }

    /// The saved windows of the alignment keyed `key`, in order; the windows of any other
    /// alignment (an earlier text or recording) are dropped.
    func narrationWindows(key: String) throws(StoreError) -> [NarrationCheckpoint] {
        try write { db in
            try db.execute(sql: "DELETE FROM narration_windows WHERE alignment_key <> ?", arguments: [key])
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT cursor, next_word, speech_frame, speech, first_word, placements FROM narration_windows WHERE alignment_key = ? ORDER BY idx",
                arguments: [key])
            var windows: [NarrationCheckpoint] = []
            for row in rows {
                let speech: Data = row[3]
                let text: String = row[5]
                // A window that does not decode ends the list: the alignment resumes before it.
                guard let placements = try? JSONDecoder().decode([WordPlacement?].self, from: Data(text.utf8)) else {
                    break
                }
                windows.append(
                    NarrationCheckpoint(
                        cursor: row[0], nextWord: row[1], speechFrame: row[2], speech: speech.map { $0 != 0 },
                        firstWord: row[4], placements: placements))
            }
            return windows
        }
    }

    /// Saves the segments the alignment keyed `key` is cut into, in place of any saved before.
    func recordNarrationSegments(key: String, _ segments: [NarrationSegment]) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM narration_segments")
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO narration_segments (alignment_key, idx, first_word, end_word, first_sample, end_sample)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for (index, segment) in segments.enumerated() {
                try insert.execute(arguments: [
                    key, index, segment.words.lowerBound, segment.words.upperBound, segment.samples.lowerBound,
                    segment.samples.upperBound,
                ])
            }
        }
    }

    /// The saved segments of the alignment keyed `key`, in order (empty when there are none, or
    /// a row is not a range).
    func narrationSegments(key: String) throws(StoreError) -> [NarrationSegment] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT first_word, end_word, first_sample, end_sample FROM narration_segments WHERE alignment_key = ? ORDER BY idx",
                arguments: [key])
            var segments: [NarrationSegment] = []
            for row in rows {
                let (firstWord, endWord, firstSample, endSample): (Int, Int, Int, Int) = (
                    row[0], row[1], row[2], row[3]
                )
                guard firstWord <= endWord, firstSample <= endSample else { return [] }
                segments.append(NarrationSegment(words: firstWord..<endWord, samples: firstSample..<endSample))
            }
            return segments
        }
    }

    /// Drops every saved window and segment (the alignment is stored whole).
    func clearNarrationWindows() throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM narration_windows")
            try db.execute(sql: "DELETE FROM narration_segments")
        }
    }
}
