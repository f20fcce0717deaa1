/// One step of a build: it takes what the steps before it produced (`Input`) and returns what it
/// did (`Output`), given what the run's stages share and none changes (`Context`).
///
/// ``BuildPipeline`` runs a recipe's stages in order — split, speak, forced alignment, timeline,
/// export, verify — with a ``BuildContext``; ``NarrationImport`` runs a narration's (align the
/// recording, cut it into items) with a ``NarrationContext``. Both pass each stage the results it
/// needs and keep the build's row in the manifest through a ``BuildSession``, so a stage that
/// throws still leaves the row marked failed. A new stage is one more type and one more step.
protocol PipelineStage {
    associatedtype Input
    associatedtype Output
    associatedtype Context = BuildContext
    func run(_ input: Input, in context: Context) async throws -> Output
}
