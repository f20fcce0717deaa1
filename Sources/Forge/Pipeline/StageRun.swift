import Foundation

/// The state of one build run as it goes through its stages: what it has done so far and the
/// batch of updates not yet committed.
struct StageRun {
    let recipe: Recipe
    /// Each engine's version by name, part of every audio key.
    let engineVersions: [String: String]
    let store: ObjectStore
    let manifest: Manifest
    let buildID: Int64
    let cancellation: CancellationFlag
    let progress: @Sendable (ProgressEvent) -> Void
    let started: ContinuousClock.Instant

    var itemsTotal = 0
    var upToDate = 0
    var synthesized = 0
    var reused = 0
    var alignedOnly = 0
    var failures: [ItemFailure] = []
    var cancelled = false
    /// The files the export stage wrote.
    var exported: [String] = []
    /// The verify stage's report.
    var verification: VerifyReport?

    /// Updates waiting for the next save, and how many items they finish.
    var pendingUpdates: [ItemUpdate] = []
    var pendingItems = 0
    var finished = 0
    var toFinish = 0
    var audioMadeMs = 0
    /// The remote cache this build shares objects through, if any.
    var speechCache: SpeechCache?
    /// This build's part of the items (`--shard`); nil for all of them.
    var shard: Shard?
    /// Items of other shards this build left pending.
    var leftToOtherShards = 0
    var downloaded = 0
    var downloadedBytes = 0
    var uploaded = 0
    var uploadedBytes = 0
    /// Verification chunks taken from the remote cache, and sent to it.
    var downloadedChunks = 0
    var uploadedChunks = 0
    /// Forced alignments taken from the remote cache, and sent to it.
    var downloadedAlignments = 0
    var uploadedAlignments = 0
    /// The cache failed once in this build and is not asked again.
    var cacheUnavailable = false
    var uploader: CacheUploader?
    /// Audio keys whose entries the cache is known to hold, not yet recorded in the manifest.
    var uploadedKeys: [String] = []
    /// Audio keys spot-checked against the remote cache, with the digest it gave for each.
    var spotChecks: [String: SpotCheck] = [:]
    var spotChecked = 0
    var spotCheckMismatches = 0
    /// The lock on the output directory: workers write through its pinned path, and a commit
    /// stops the build once the directory's name no longer reaches it.
    var pin: OutputLock?
    /// Items this build recorded something for (their chapters' timelines are recorded again).
    var touchedItems = Set<String>()
    /// Words of the items being aligned, loaded once.
    var words: [String: [WordToken]] = [:]

    init(
        recipe: Recipe, engineVersions: [String: String], store: ObjectStore, manifest: Manifest, buildID: Int64,
        cancellation: CancellationFlag, progress: @escaping @Sendable (ProgressEvent) -> Void, started: ContinuousClock.Instant
    ) {
        self.recipe = recipe
        self.engineVersions = engineVersions
        self.store = store
        self.manifest = manifest
        self.buildID = buildID
        self.cancellation = cancellation
        self.progress = progress
        self.started = started
    }

    /// Queues an item's updates; commits when `saveInterval` items are waiting. The item is reported
    /// after that commit, so with a save interval of 1 every reported item is durable.
    mutating func record(_ updates: [ItemUpdate], itemID: String, ordinal: Int, outcome: ItemProgress.Outcome, error: String? = nil, audioMs: Int = 0) throws {
        pendingUpdates.append(contentsOf: updates)
        pendingItems += 1
        touchedItems.insert(itemID)
        finished += 1
        audioMadeMs += audioMs
        switch outcome {
        case .synthesized: synthesized += 1
        case .reused: reused += 1
        case .downloaded: downloaded += 1
        case .aligned: alignedOnly += 1
        case .failed: failures.append(ItemFailure(itemID: itemID, error: error ?? "unknown error"))
        }
        let committed = pendingItems >= recipe.build.saveInterval ? try commit() : 0
        progress(.item(ItemProgress(
            itemID: itemID, ordinal: ordinal, outcome: outcome, error: error, finished: finished, toFinish: toFinish,
            audioMs: audioMadeMs, durationMs: audioMs > 0 ? audioMs : nil, elapsedSeconds: BuildPipeline.seconds(since: started))))
        if committed > 0 { progress(.saved(committedItems: committed)) }
    }

    /// Commits every waiting update in one transaction and reports it.
    mutating func save() throws {
        let committed = try commit()
        if committed > 0 { progress(.saved(committedItems: committed)) }
    }

    /// Commits every waiting update in one transaction; returns how many items it finished.
    private mutating func commit() throws -> Int {
        guard !pendingUpdates.isEmpty else { return 0 }
        try manifest.apply(pendingUpdates, build: buildID)
        let committed = pendingItems
        pendingUpdates.removeAll(keepingCapacity: true)
        pendingItems = 0
        // What was just committed went with the directory (the manifest and the workers' objects
        // are reached through descriptors); nothing more is written once its name leads elsewhere.
        if let pin, !pin.isStill(at: recipe.outputDirectory) { throw StoreError.outputMoved(path: recipe.outputDirectory.path) }
        return committed
    }
}

/// A remote-cache hit made here instead: the item it was looked up for, and the audio digest the cache gave.
struct SpotCheck {
    var itemID: String
    var digest: String
}
