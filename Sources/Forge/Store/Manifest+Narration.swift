import GRDB

/// Where a narration and its text agree (schema v12), as `forge align --audio` found it.
extension Manifest {
    /// One span of a narration, with its words named by item and index in the item.
    public struct NarrationSpanRow: Sendable, Equatable {
        public var kind: NarrationSpan.Kind
        public var startMs: Int
        public var endMs: Int
        /// The first and last word (item id, index in the item); nil for audio without text.
        public var firstWord: (item: String, index: Int)?
        public var lastWord: (item: String, index: Int)?
        /// The span's text (shortened in the middle when long); nil for audio without text.
        public var text: String?

        public init(kind: NarrationSpan.Kind, startMs: Int, endMs: Int, firstWord: (item: String, index: Int)?, lastWord: (item: String, index: Int)?, text: String?) {
            self.kind = kind
            self.startMs = startMs
            self.endMs = endMs
            self.firstWord = firstWord
            self.lastWord = lastWord
            self.text = text
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.kind == rhs.kind && lhs.startMs == rhs.startMs && lhs.endMs == rhs.endMs && lhs.text == rhs.text
                && lhs.firstWord?.item == rhs.firstWord?.item && lhs.firstWord?.index == rhs.firstWord?.index
                && lhs.lastWord?.item == rhs.lastWord?.item && lhs.lastWord?.index == rhs.lastWord?.index
        }
    }

    /// Replaces the recorded narration spans.
    func recordNarrationSpans(_ spans: [NarrationSpanRow]) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM narration_spans")
            let insert = try db.makeStatement(sql: """
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
    public func narrationSpans() throws(StoreError) -> [NarrationSpanRow] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT kind, start_ms, end_ms, first_item, first_word, last_item, last_word, text FROM narration_spans ORDER BY idx").map { row in
                let first: (item: String, index: Int)? = (row[3] as String?).flatMap { item in (row[4] as Int?).map { (item, $0) } }
                let last: (item: String, index: Int)? = (row[5] as String?).flatMap { item in (row[6] as Int?).map { (item, $0) } }
                return NarrationSpanRow(
                    kind: NarrationSpan.Kind(rawValue: row[0]) ?? .matched, startMs: row[1], endMs: row[2], firstWord: first, lastWord: last, text: row[7])
            }
        }
    }
}
