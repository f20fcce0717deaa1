/// What a build's stages returned, in order: the build's summary and its record in the manifest
/// are made from these values, not from state the stages left behind.
struct BuildResults: Sendable {
    var split: SplitOutcome?
    var speech: SpeechOutcome?
    var alignment: AlignmentOutcome?
    /// The files the export stage wrote.
    var exported = ExportOutcome()
    var verification: VerificationOutcome?
    /// A shard's finishing of its chapters (`--shard`).
    var finishing: ShardFinishing?
    var reproducibility: BuildSummary.ReproducibilityCheck?

    /// A stage stopped before its work was done (Ctrl-C or SIGTERM).
    var stopped: Bool {
        split?.cancelled == true || speech?.items.cancelled == true || alignment?.items.cancelled == true
    }
    var itemsTotal: Int { speech?.items.itemsTotal ?? split?.items ?? 0 }
    /// Items synthesized: by the speak stage, and by later stages for audio the remote cache could not give back.
    var synthesized: Int {
        (speech?.items.synthesized ?? 0) + exported.synthesizedItems + (verification?.synthesizedItems ?? 0)
    }
    var reused: Int { speech?.items.reused ?? 0 }
    /// Items timed without new audio: from their events in the speak stage, or by forced alignment.
    var aligned: Int { (speech?.items.aligned ?? 0) + (alignment?.items.aligned ?? 0) }
    var failures: [ItemFailure] { (speech?.items.failures ?? []) + (alignment?.items.failures ?? []) }
    var traffic: CacheTraffic {
        [speech?.traffic, alignment?.traffic, verification?.traffic, exported.traffic, finishing?.traffic].compactMap {
            $0
        }.reduce(CacheTraffic(), +)
    }
    var touchedItems: Set<String> { (speech?.items.touchedItems ?? []).union(alignment?.items.touchedItems ?? []) }

    /// The build row's ending: `outcome`, and the counts of the stages that returned.
    func ending(_ outcome: BuildRecord.Outcome, total: Int) -> BuildSession.Ending {
        BuildSession.Ending(
            outcome: outcome, total: total, synthesized: synthesized, reused: reused, failed: failures.count,
            downloaded: traffic.downloaded)
    }
}
