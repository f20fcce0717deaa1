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

    /// The columns in the order `init(row:)` reads them.
    package static var databaseSelection: [any SQLSelectable] {
        [
            Column("id"), Column("chapter"), Column("ordinal"), Column("kind"), Column("text"), Column("source_path"),
            Column("source_start"), Column("source_end"), Column("status"), Column("error"), Column("audio_key"),
            Column("events_key"), Column("alignment_key"), Column("duration_ms"), Column("voice"), Column("built_by"),
            Column("alignment_source"), Column("element_id"),
            Column("character"), Column("name"),
        ]
    }

    /// Whether the split placed this item identically (same chapter, order and source range).
    func hasSamePlacement(as item: SpeakableItem) -> Bool {
        chapter == item.chapter && ordinal == item.ordinal && sourcePath == item.sourcePath
            && sourceStart == item.sourceStart && sourceEnd == item.sourceEnd && kind == item.kind.rawValue
            && elementID == item.elementID && character == item.character && name == item.name
    }
}
