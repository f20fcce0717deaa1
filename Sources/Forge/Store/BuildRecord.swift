import GRDB

/// A row of the manifest's `builds` table: one run of forge against the output directory.
public struct BuildRecord: Sendable, Equatable, Codable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "builds"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public enum Outcome: String, Sendable, Codable {
        case running, succeeded, failed, cancelled
    }

    public var id: Int64?
    public var recipePath: String
    public var recipeHash: String
    public var toolVersion: String
    public var engine: String
    public var engineVersion: String
    public var commandLine: String
    public var stages: String
    /// ISO 8601, UTC.
    public var startedAt: String
    public var endedAt: String?
    public var outcome: Outcome
    public var itemsTotal: Int
    public var itemsSynthesized: Int
    public var itemsReused: Int
    public var itemsFailed: Int
    /// Items whose objects came from the remote cache.
    public var itemsDownloaded: Int = 0
    /// What the build was made from and left behind (``BuildFingerprint``), recorded when it succeeded.
    public var fingerprint: String?
    /// The settings it was made with (`RecordedSettings` as JSON): later commands' defaults.
    public var settings: String?

    public init(
        recipePath: String, recipeHash: String, toolVersion: String, engine: String, engineVersion: String,
        commandLine: String, stages: String, startedAt: String, settings: String? = nil
    ) {
        self.settings = settings
        self.recipePath = recipePath
        self.recipeHash = recipeHash
        self.toolVersion = toolVersion
        self.engine = engine
        self.engineVersion = engineVersion
        self.commandLine = commandLine
        self.stages = stages
        self.startedAt = startedAt
        outcome = .running
        itemsTotal = 0
        itemsSynthesized = 0
        itemsReused = 0
        itemsFailed = 0
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
