import Foundation

extension StageRun {
    /// Makes the manifest's chapters and items match a split of the sources.
    mutating func record(_ result: SplitResult) throws {
        let changed = try manifest.synchronize(with: result)
        itemsTotal = result.items.count
        progress(.split(chapters: result.chapters.count, items: result.items.count, words: result.wordCount, changedItems: changed))
    }
}
