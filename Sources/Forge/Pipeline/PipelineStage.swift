/// One step of a build: it takes what the steps before it produced (`Input`) and returns what it
/// did (`Output`), given the build's shared, unchanging ``BuildContext``. ``BuildPipeline`` runs
/// them in order — split, speak, forced alignment, timeline, export, verify — passing each the
/// results it needs, and opens and closes the build's record, so a stage that throws still leaves
/// a build row marked failed. A new stage is one more type like these and one more step there.
protocol PipelineStage {
    associatedtype Input
    associatedtype Output
    func run(_ input: Input, in context: BuildContext) async throws -> Output
}
