import Foundation

/// One stage's work in progress, made by the stage for itself and turned into its result
/// (``SpeechOutcome``, ``AlignmentOutcome``, ``VerificationOutcome``): the items it records
/// (through an ``ItemRecorder``, in batches), its counts, and its remote-cache traffic. What the whole build shares is the ``BuildContext``,
/// which no stage changes.
struct StageWork {
    let context: BuildContext

    var itemsTotal = 0
    var upToDate = 0
    var synthesized = 0
    var reused = 0
    var alignedOnly = 0
    var failures: [ItemFailure] = []
    var cancelled = false

    /// The items' updates on their way to the manifest.
    var recorder: ItemRecorder
    var finished = 0
    var toFinish = 0
    var audioMadeMs = 0
    /// Items of other shards this build left pending.
    var leftToOtherShards = 0
    var traffic = CacheTraffic()
    /// What each speech service was asked, by engine name.
    var serviceUsage: [SpeechServiceUsage] = []
    var uploader: CacheUploader?
    /// Audio keys whose entries the cache is known to hold, not yet recorded in the manifest.
    var uploadedKeys: [String] = []
    /// Audio keys spot-checked against the remote cache, with the digest it gave for each.
    var spotChecks: [String: SpotCheck] = [:]
    /// Items this stage recorded something for (their chapters' timelines are recorded again).
    var touchedItems = Set<String>()
    /// Every item's words, when forced alignment loaded them all.
    var words: [String: [WordToken]] = [:]
    /// Whether synthesized items' words are read a chapter at a time (many items to align) rather
    /// than an item at a time (an edit's few).
    var wordsByChapter = false
    /// The words of the latest chapter read, by item, and its ordinal: items finish in reading
    /// order, so memory follows the longest chapter, not the book.
    var chapterWords: [String: [WordToken]] = [:]
    var chapterWordsOrdinal: Int?

    /// Whether items found in the remote cache get only their events, their audio left there until
    /// something needs its samples (a whole build with the cache, unless `cache.downloadAll` or
    /// forced alignment); a shard makes its chapters' exports and downloads what it takes.
    var leavesAudioInCache: Bool

    init(context: BuildContext) {
        self.context = context
        recorder = ItemRecorder(
            manifest: context.manifest, buildID: context.buildID, saveInterval: context.recipe.build.saveInterval,
            pin: context.pin, outputDirectory: context.recipe.outputDirectory)
        // Forced alignment reads every item's samples: its items' audio is downloaded.
        leavesAudioInCache =
            context.shard == nil && context.recipe.cache?.downloadAll == false
            && context.recipe.alignment.method == .auto
    }

    var recipe: Recipe { context.recipe }
    var engineVersions: [String: String] { context.engineVersions }
    var store: ObjectStore { context.store }
    var manifest: Manifest { context.manifest }
    var buildID: Int64 { context.buildID }
    var cancellation: CancellationFlag { context.cancellation }
    var progress: @Sendable (ProgressEvent) -> Void { context.progress }
    var started: ContinuousClock.Instant { context.started }
    var pin: OutputLock? { context.pin }
    var speechCache: SpeechCache? { context.speechCache }
    var shard: Shard? { context.shard }
    /// The cache failed once in this build and is not asked again (by this stage or another).
    var cacheUnavailable: Bool { context.remoteCacheHealth.isUnavailable }

    /// Queues an item's updates; commits when `saveInterval` items are waiting (by default: 64, or a
    /// second after the last commit). The item is reported after that commit, so with a save
    /// interval of 1 every reported item is durable.
    mutating func record(
        _ updates: [ItemUpdate], itemID: String, ordinal: Int, outcome: ItemProgress.Outcome, error: String? = nil,
        audioMs: Int = 0
    ) throws {
        recorder.add(updates)
        touchedItems.insert(itemID)
        finished += 1
        audioMadeMs += audioMs
        switch outcome {
        case .synthesized: synthesized += 1
        case .reused: reused += 1
        case .downloaded: traffic.downloaded += 1
        case .aligned: alignedOnly += 1
        case .failed: failures.append(ItemFailure(itemID: itemID, error: error ?? "unknown error"))
        }
        let committed = recorder.isDue ? try recorder.commit() : 0
        progress(
            .item(
                ItemProgress(
                    itemID: itemID, ordinal: ordinal, outcome: outcome, error: error, finished: finished,
                    toFinish: toFinish,
                    audioMs: audioMadeMs, durationMs: audioMs > 0 ? audioMs : nil,
                    elapsedSeconds: BuildPipeline.seconds(since: started))))
        if committed > 0 { progress(.saved(committedItems: committed)) }
    }

    /// Commits every waiting update in one transaction and reports it.
    mutating func save() throws {
        let committed = try recorder.commit()
        if committed > 0 { progress(.saved(committedItems: committed)) }
    }
}

/// A remote-cache hit made here instead: the item it was looked up for, and the audio digest the cache gave.
struct SpotCheck {
    var itemID: String
    var digest: String
}
