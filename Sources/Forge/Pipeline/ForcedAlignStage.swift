/// Places, with pocketsphinx, the words of items whose engine gave no timings (every item's with
/// `alignment.method` "forced"). Its input is the manifest's spoken items, as a resumed build
/// and a shard find them.
struct ForcedAlignStage: PipelineStage {
    let threads: Int

    func run(_ input: Void, in context: BuildContext) async throws -> AlignmentOutcome {
        var work = StageWork(context: context)
        try await work.forceAlign(threads: threads)
        return AlignmentOutcome(items: work.tally, traffic: work.traffic)
    }
}
