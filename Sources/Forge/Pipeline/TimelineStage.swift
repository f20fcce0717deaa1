/// Records, once every item is done, each item's place on its chapter's timeline and its
/// sentences (for apps reading the manifest beside the exported chapter audio). Takes the items
/// the stages before it touched: their chapters are recorded again. Returns the book laid out, which
/// the export stage takes.
struct TimelineStage: PipelineStage {
    func run(_ touchedItems: Set<String>, in context: BuildContext) throws -> BookTimeline {
        try TimelineRecorder(store: context.store, manifest: context.manifest, settings: context.recipe.exports)
            .record(touched: touchedItems, cancellation: context.cancellation)
    }
}
