import GRDB

/// A row of the manifest's `builds` table: one run of forge against the output directory.
package struct BuildRecord: Sendable, Equatable, Codable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "builds"
    package static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    package static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    package enum Outcome: String, Sendable, Codable {
        case running, succeeded, failed, cancelled
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
