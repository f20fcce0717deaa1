import GRDB

/// A row of the manifest's `items` table.
package struct ItemRecord: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "items"
    package static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    package static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    package var id: String
    package var chapter: Int
    package var ordinal: Int
    package var kind: String
    package var text: String
    package var sourcePath: String
    package var sourceStart: Int
    package var sourceEnd: Int
    package var status: ItemStatus
    package var error: String?
    package var audioKey: String?
    package var eventsKey: String?
    package var alignmentKey: String?
    package var durationMs: Int?
    package var voice: String?
    package var builtBy: Int64?
    /// Where the word timings came from; nil until aligned.
    package var alignmentSource: AlignmentSource?
    /// The id of the HTML/XHTML element the item came from, if any.
    package var elementID: String?
    /// Who speaks a dialogue item; nil for the narrator.
    package var character: String?
    /// An inline item's recipe id.
    package var name: String?

    /// The `origin` column's value for an item whose objects were downloaded from a remote cache
    /// (the column is NULL for items made or reused here).
    package static let remoteCacheOrigin = "remote-cache"

    package init(item: SpeakableItem) {
        character = item.character
        name = item.name
        id = item.id
        chapter = item.chapter
        ordinal = item.ordinal
        kind = item.kind.rawValue
        text = item.text
        sourcePath = item.sourcePath
        sourceStart = item.sourceStart
        sourceEnd = item.sourceEnd
        elementID = item.elementID
        status = .pending
    }

    /// Reads a row by column position, in the schema's column order: much faster than Codable
    /// decoding, and a build reads every item on every run.
    package init(row: Row) throws {
        id = row[0]
        chapter = row[1]
        ordinal = row[2]
        kind = row[3]
        text = row[4]
        sourcePath = row[5]
        sourceStart = row[6]
        sourceEnd = row[7]
        status = ItemStatus(rawValue: row[8]) ?? .pending
        error = row[9]
        audioKey = row[10]
        eventsKey = row[11]
        alignmentKey = row[12]
        durationMs = row[13]
        voice = row[14]
        builtBy = row[15]
        alignmentSource = (row[16] as String?).flatMap(AlignmentSource.init(rawValue:))
        elementID = row[17]
        character = row[18]
        name = row[19]
    }

    /// The table's columns, for the query interface (names as the schema spells them).
    package enum Columns {
        static let id = Column("id"), chapter = Column("chapter"), ordinal = Column("ordinal"), kind = Column("kind")
        static let text = Column("text"), sourcePath = Column("source_path"), sourceStart = Column("source_start")
        static let sourceEnd = Column("source_end"), status = Column("status"), error = Column("error")
        static let audioKey = Column("audio_key"), eventsKey = Column("events_key"),
            alignmentKey = Column("alignment_key")
        static let durationMs = Column("duration_ms"), voice = Column("voice"), builtBy = Column("built_by")
        static let alignmentSource = Column("alignment_source"), elementID = Column("element_id")
        static let character = Column("character"), name = Column("name")
    }

    /// The columns in the order `init(row:)` reads them.
    package static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.chapter, Columns.ordinal, Columns.kind, Columns.text, Columns.sourcePath,
            Columns.sourceStart, Columns.sourceEnd, Columns.status, Columns.error, Columns.audioKey,
            Columns.eventsKey, Columns.alignmentKey, Columns.durationMs, Columns.voice, Columns.builtBy,
            Columns.alignmentSource, Columns.elementID, Columns.character, Columns.name,
        ]
    }

    /// Whether the split placed this item identically (same chapter, order and source range).
    func hasSamePlacement(as item: SpeakableItem) -> Bool {
        chapter == item.chapter && ordinal == item.ordinal && sourcePath == item.sourcePath
            && sourceStart == item.sourceStart && sourceEnd == item.sourceEnd && kind == item.kind.rawValue
            && elementID == item.elementID && character == item.character && name == item.name
    }
}
