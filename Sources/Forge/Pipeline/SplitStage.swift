/// Records the split of the sources in the manifest: chapters, items and their words. A stop
/// meanwhile leaves the manifest as it was.
struct SplitStage: PipelineStage {
    func run(_ result: SplitResult, in context: BuildContext) throws -> SplitOutcome {
        guard let changed = try context.manifest.synchronize(with: result, cancellation: context.cancellation) else {
            return SplitOutcome(cancelled: true)
        }
        context.progress(
            .split(
                chapters: result.chapters.count, items: result.items.count, words: result.wordCount,
                changedItems: changed))
        return SplitOutcome(items: result.items.count, changedItems: changed)
    }
}
