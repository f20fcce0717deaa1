import GRDB

/// A row of the manifest's `items` table.
public struct ItemRecord: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "items"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public var id: String
    public var chapter: Int
    public var ordinal: Int
    public var kind: String
    public var text: String
    public var sourcePath: String
    public var sourceStart: Int
    public var sourceEnd: Int
    public var status: ItemStatus
    public var error: String?
    public var audioKey: String?
    public var eventsKey: String?
    public var alignmentKey: String?
    public var durationMs: Int?
    public var voice: String?
    public var builtBy: Int64?
    /// Where the word timings came from; nil until aligned.
    public var alignmentSource: AlignmentSource?
    /// The id of the HTML/XHTML element the item came from, if any.
    public var elementID: String?
    /// Who speaks a dialogue item; nil for the narrator.
    public var character: String?
    /// An inline item's recipe id.
    public var name: String?

    /// The `origin` column's value for an item whose objects were downloaded from a remote cache
    /// (the column is NULL for items made or reused here).
    public static let remoteCacheOrigin = "remote-cache"

    public init(item: SpeakableItem) {
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
    public init(row: Row) throws {
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
    public static var databaseSelection: [any SQLSelectable] {
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
