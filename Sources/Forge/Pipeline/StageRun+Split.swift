import Foundation

extension StageRun {
    /// Makes the manifest's chapters and items match a split of the sources; a stop meanwhile
    /// leaves the manifest as it was and the build cancelled.
    mutating func record(_ result: SplitResult) throws {
        guard let changed = try manifest.synchronize(with: result, cancellation: cancellation) else {
            cancelled = true
            return
        }
        itemsTotal = result.items.count
        progress(.split(chapters: result.chapters.count, items: result.items.count, words: result.wordCount, changedItems: changed))
    }
}
