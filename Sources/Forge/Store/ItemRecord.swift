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

    public init(item: SpeakableItem) {
        id = item.id
        chapter = item.chapter
        ordinal = item.ordinal
        kind = item.kind.rawValue
        text = item.text
        sourcePath = item.sourcePath
        sourceStart = item.sourceStart
        sourceEnd = item.sourceEnd
        status = .pending
    }

    /// Whether the split placed this item identically (same chapter, order and source range).
    func hasSamePlacement(as item: SpeakableItem) -> Bool {
        chapter == item.chapter && ordinal == item.ordinal && sourcePath == item.sourcePath
            && sourceStart == item.sourceStart && sourceEnd == item.sourceEnd && kind == item.kind.rawValue
    }
}
