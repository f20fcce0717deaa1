/// Records, once every item is done, each item's place on its chapter's timeline and its
/// sentences (for apps reading the manifest beside the exported chapter audio). Takes the items
/// the stages before it touched: their chapters are recorded again.
struct TimelineStage: PipelineStage {
    func run(_ touchedItems: Set<String>, in context: BuildContext) throws {
        try TimelineRecorder(store: context.store, manifest: context.manifest, settings: context.recipe.exports)
            .record(touched: touchedItems, cancellation: context.cancellation)
    }
}
