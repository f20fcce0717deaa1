/// Places, with pocketsphinx, the words of items whose engine gave no timings (every item's with
/// `alignment.method` "forced"). Takes the speak stage's outcome for the words it already loaded.
struct ForcedAlignStage: PipelineStage {
    let threads: Int

    func run(_ speech: SpeechOutcome?, in context: BuildContext) async throws -> AlignmentOutcome {
        var work = StageWork(context: context)
        work.words = speech?.words ?? [:]
        try await work.forceAlign(threads: threads)
        return AlignmentOutcome(
            aligned: work.alignedOnly, failures: work.failures, cancelled: work.cancelled, traffic: work.traffic,
            touchedItems: work.touchedItems)
    }
}
