/// Writes the recipe's exports once every item is done and returns the files written; a stop
/// leaves every written file whole and the next build exports again.
struct ExportStage: PipelineStage {
    let settings: ExportSettings
    /// The synthesis worker's launch, for the ACX credits (spoken before the export, as items are).
    let launch: WorkerPool.Launch

    func run(_ input: Void, in context: BuildContext) async throws -> [String] {
        context.progress(.phase("export"))
        let manifest = context.manifest
        do {
            let settings = try await CreditSpeech(outputDirectory: context.store.root, launch: launch, cancellation: context.cancellation)
                .prepare(settings, manifest: manifest)
            // A long book spends minutes here: each chapter of each phase is reported, as items are.
            let progress = context.progress
            let exporter = Exporter(
                outputDirectory: context.store.root, settings: settings, cancellation: context.cancellation, progress: { progress(.exporting($0)) })
            return try await BlockingThreads.run { try exporter.exportIfChanged(using: manifest) }
        } catch ExportError.cancelled {
            // Every file written is whole; the next build exports again (the stamp was not written).
            return []
        }
    }
}
