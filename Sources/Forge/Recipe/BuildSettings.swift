import Foundation

/// How a build runs.
public struct BuildSettings: Sendable, Equatable {
    /// The keys of the recipe's `build` object; the recipe loader refuses others.
    public static let recipeKeys = ["saveInterval", "jobs"]

    public static let allowedJobs = 1...256
    public static let allowedSaveIntervals = 1...100_000

    /// Finished items are committed to the manifest every `saveInterval` items.
    public var saveInterval: Int
    /// Synthesis worker processes run at once.
    public var jobs: Int

    public init(saveInterval: Int = 1, jobs: Int = BuildSettings.defaultJobs) {
        self.saveInterval = saveInterval
        self.jobs = jobs
    }

    /// One job per active core.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
