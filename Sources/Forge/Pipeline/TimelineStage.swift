/// Records, once every item is done, each item's place on its chapter's timeline (laid out with
/// `settings`' pauses) and its sentences (for apps reading the manifest beside the exported chapter
/// audio). Takes the items the stages before it touched: their chapters are recorded again.
/// Returns the book laid out, which the export and verify stages take. A build and a narration's
/// import run it alike.
struct TimelineStage<Context: StageContext>: PipelineStage {
    let settings: ExportSettings

    func run(_ touchedItems: Set<String>, in context: Context) throws -> BookTimeline {
        try TimelineRecorder(store: context.store, manifest: context.manifest, settings: settings)
            .record(touched: touchedItems, cancellation: context.stop)
    }
}
