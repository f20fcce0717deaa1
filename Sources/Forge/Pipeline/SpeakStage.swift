/// Synthesizes missing audio in worker processes, reuses what the store has, downloads what the
/// remote cache has, and (with `alignByEvents`) places every word from the engine's events.
struct SpeakStage: PipelineStage {
    let speak: Bool
    let alignByEvents: Bool
    let launch: WorkerPool.Launch

    func run(_ input: Void, in context: BuildContext) async throws -> SpeechOutcome {
        var work = StageWork(context: context)
        try await work.speakAndAlign(speak: speak, align: alignByEvents, launch: launch)
        return SpeechOutcome(items: work.tally, traffic: work.traffic, serviceUsage: work.serviceUsage)
    }
}
