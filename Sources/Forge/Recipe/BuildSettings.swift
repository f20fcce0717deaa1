import Foundation

/// How a build runs.
package struct BuildSettings: Sendable, Equatable {
    /// The keys of the recipe's `build` object (read by `BuildSettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case saveInterval, jobs }

    package static let allowedJobs = 1...256
    package static let allowedSaveIntervals = 1...100_000

    /// Finished items are committed to the manifest every `saveInterval` items.
    package var saveInterval: Int
    /// Synthesis worker processes run at once.
    package var jobs: Int

    package init(saveInterval: Int = 1, jobs: Int = BuildSettings.defaultJobs) {
        self.saveInterval = saveInterval
        self.jobs = jobs
    }

    /// One job per active core.
    package static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
