import Foundation

/// The work in progress of a stage that records items (speak, forced alignment), turned into its
/// outcome (``SpeechOutcome``, ``AlignmentOutcome``): the updates it records through an
/// ``ItemRecorder`` in batches, its ``ItemTally``, its remote-cache traffic, and the speak stage's
/// ``SpeechCacheLedger`` and ``ChapterWordReader``. What the whole build shares is the
/// ``BuildContext``, which no stage changes.
struct StageWork {
    let context: BuildContext
    var tally = ItemTally()
    /// The items' updates on their way to the manifest.
    var recorder: ItemRecorder
    var traffic = CacheTraffic()
    /// What each speech service was asked, by engine name.
    var serviceUsage: [SpeechServiceUsage] = []
    var cacheLedger: SpeechCacheLedger
    var wordReader = ChapterWordReader()

    init(context: BuildContext) {
        self.context = context
        recorder = ItemRecorder(
            manifest: context.manifest, buildID: context.buildID, saveInterval: context.recipe.build.saveInterval,
            pin: context.pin, outputDirectory: context.recipe.outputDirectory)
        cacheLedger = SpeechCacheLedger(context: context)
    }

    var recipe: Recipe { context.recipe }
    var store: ObjectStore { context.store }
    var manifest: Manifest { context.manifest }
    var cancellation: CancellationFlag { context.cancellation }
    var progress: @Sendable (ProgressEvent) -> Void { context.progress }

    /// Queues an item's updates; commits when `saveInterval` items are waiting (by default: 64, or a
    /// second after the last commit). The item is reported after that commit, so with a save
    /// interval of 1 every reported item is durable.
    mutating func record(
        _ updates: [ItemUpdate], itemID: String, ordinal: Int, outcome: ItemProgress.Outcome, error: String? = nil,
        audioMs: Int = 0
    ) throws {
        recorder.add(updates)
        tally.count(itemID: itemID, outcome: outcome, error: error, audioMs: audioMs, traffic: &traffic)
        let committed = recorder.isDue ? try recorder.commit() : 0
        progress(
            .item(
                ItemProgress(
                    itemID: itemID, ordinal: ordinal, outcome: outcome, error: error, finished: tally.finished,
                    toFinish: tally.toFinish, audioMs: tally.audioMs, durationMs: audioMs > 0 ? audioMs : nil,
                    elapsedSeconds: BuildPipeline.seconds(since: context.started))))
        if committed > 0 { progress(.saved(committedItems: committed)) }
    }

    /// Commits every waiting update in one transaction and reports it.
    mutating func save() throws {
        let committed = try recorder.commit()
        if committed > 0 { progress(.saved(committedItems: committed)) }
    }
}
