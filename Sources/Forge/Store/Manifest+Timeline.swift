import GRDB

/// Items' places on their chapters' timelines and the sentence table (schema v11).
extension Manifest {
    /// One sentence of an item, with its chapter-timeline times.
    package struct SentenceRow: Sendable, Equatable {
        package var index: Int
        package var text: String
        /// Unicode scalar offsets into the item's text.
        package var charStart: Int
        package var charEnd: Int
        /// Indices of its words in the item (`words.idx`), end exclusive.
        package var wordStart: Int
        package var wordEnd: Int
        package var chapterStartMs: Int
        package var chapterEndMs: Int

        package init(
            index: Int, text: String, charStart: Int, charEnd: Int, wordStart: Int, wordEnd: Int, chapterStartMs: Int,
            chapterEndMs: Int
        ) {
            self.index = index
            self.text = text
            self.charStart = charStart
            self.charEnd = charEnd
            self.wordStart = wordStart
            self.wordEnd = wordEnd
            self.chapterStartMs = chapterStartMs
            self.chapterEndMs = chapterEndMs
        }
    }

    /// An item's place on its chapter's timeline and its sentences.
    package struct PlacedItem: Sendable, Equatable {
        package var itemID: String
        package var chapterStartMs: Int
        package var chapterEndMs: Int
        package var sentences: [SentenceRow]

        package init(itemID: String, chapterStartMs: Int, chapterEndMs: Int, sentences: [SentenceRow]) {
            self.itemID = itemID
            self.chapterStartMs = chapterStartMs
            self.chapterEndMs = chapterEndMs
            self.sentences = sentences
        }
    }

    /// Every item's recorded place (start, end), nil where none is recorded.
    func placements() throws(StoreError) -> [String: (start: Int?, end: Int?)] {
        try read { db in
            var placements: [String: (start: Int?, end: Int?)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, chapter_start_ms, chapter_end_ms FROM items") {
                placements[row[0]] = (row[1], row[2])
            }
            return placements
        }
    }

    /// Records the places and sentences of one chapter's items, replacing what was there.
    func recordPlacements(_ items: [PlacedItem]) throws(StoreError) {
        guard !items.isEmpty else { return }
        try write { db in
            let place = try db.makeStatement(
                sql: "UPDATE items SET chapter_start_ms = ?, chapter_end_ms = ? WHERE id = ?")
            let clear = try db.makeStatement(sql: "DELETE FROM sentences WHERE item_id = ?")
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO sentences (item_id, idx, text, char_start, char_end, word_start, word_end, chapter_start_ms, chapter_end_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for item in items {
                try place.execute(arguments: [item.chapterStartMs, item.chapterEndMs, item.itemID])
                try clear.execute(arguments: [item.itemID])
                for sentence in item.sentences {
                    try insert.execute(arguments: [
                        item.itemID, sentence.index, sentence.text, sentence.charStart, sentence.charEnd,
                        sentence.wordStart,
                        sentence.wordEnd, sentence.chapterStartMs, sentence.chapterEndMs,
                    ])
                }
            }
        }
    }

    /// An item's sentences, in order.
    package func sentences(of itemID: String) throws(StoreError) -> [SentenceRow] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT idx, text, char_start, char_end, word_start, word_end, chapter_start_ms, chapter_end_ms
                    FROM sentences WHERE item_id = ? ORDER BY idx
                    """, arguments: [itemID]
            ).map {
                SentenceRow(
                    index: $0[0], text: $0[1], charStart: $0[2], charEnd: $0[3], wordStart: $0[4], wordEnd: $0[5],
                    chapterStartMs: $0[6], chapterEndMs: $0[7])
            }
        }
    }
}
