import Foundation

/// How a build runs.
package struct BuildSettings: Sendable, Equatable {
    /// The keys of the recipe's `build` object (read by `BuildSettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case saveInterval, jobs }

    package static let allowedJobs = 1...256
    package static let allowedSaveIntervals = 1...100_000

    /// Finished items are committed to the manifest every `saveInterval` items; when the recipe
    /// does not say (nil), at least once a second and every ``automaticSaveItems`` items.
    package var saveInterval: Int?
    /// Synthesis worker processes run at once.
    package var jobs: Int

    /// The most items an automatic save waits for. A commit costs about the same CPU whatever it
    /// holds (committing each item of a book would be a visible part of its build), and a
    /// crash loses at most these items' manifest rows: their objects stay in the store, and the
    /// rerun reuses them without speaking them again.
    package static let automaticSaveItems = 64
    /// The longest an automatic save waits while items finish: slow items are saved one by one.
    package static let automaticSaveSeconds: Duration = .seconds(1)

    package init(saveInterval: Int? = nil, jobs: Int = BuildSettings.defaultJobs) {
        self.saveInterval = saveInterval
        self.jobs = jobs
    }

    /// One job per active core.
    package static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
