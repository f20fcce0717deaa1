import GRDB

/// A row of the manifest's `builds` table: one run of forge against the output directory.
package struct BuildRecord: Sendable, Equatable, Codable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "builds"
    package static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    package static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    package enum Outcome: String, Sendable, Codable, DatabaseValueConvertible {
        case running, succeeded, failed, cancelled
    }

    /// The table's columns, for the query interface (names as the schema spells them).
    package enum Columns {
        static let id = Column("id")
        static let startedAt = Column("started_at")
        static let endedAt = Column("ended_at")
        static let outcome = Column("outcome")
        static let itemsTotal = Column("items_total")
        static let itemsSynthesized = Column("items_synthesized")
        static let itemsReused = Column("items_reused")
        static let itemsFailed = Column("items_failed")
        static let itemsDownloaded = Column("items_downloaded")
        static let fingerprint = Column("fingerprint")
        static let settings = Column("settings")
    }

    package var id: Int64?
    package var recipePath: String
    package var recipeHash: String
    package var toolVersion: String
    package var engine: String
    package var engineVersion: String
    package var commandLine: String
    package var stages: String
    /// ISO 8601, UTC.
    package var startedAt: String
    package var endedAt: String?
    package var outcome: Outcome
    package var itemsTotal: Int
    package var itemsSynthesized: Int
    package var itemsReused: Int
    package var itemsFailed: Int
    /// Items whose objects came from the remote cache.
    package var itemsDownloaded: Int = 0
    /// What the build was made from and left behind (``BuildFingerprint``), recorded when it succeeded.
    package var fingerprint: String?
    /// The settings it was made with (`RecordedSettings` as JSON): later commands' defaults.
    package var settings: String?

    package init(
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

    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
