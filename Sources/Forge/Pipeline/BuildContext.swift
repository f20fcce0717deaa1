import Foundation

/// What every stage of one build shares and none changes: the recipe, the store and the manifest,
/// the build's number, the stop flag, the progress sink and the remote cache. Each stage returns
/// what it did as a value of its own (``SpeechOutcome``, ``AlignmentOutcome``, …); nothing a stage
/// does is left on the context for the next one to find.
struct BuildContext: Sendable {
    let recipe: Recipe
    /// Each engine's version by name, part of every audio key.
    let engineVersions: [String: String]
    let store: ObjectStore
    let manifest: Manifest
    let buildID: Int64
    let cancellation: CancellationFlag
    let progress: @Sendable (ProgressEvent) -> Void
    let started: ContinuousClock.Instant
    /// The lock on the output directory: workers write through its pinned path, and a commit
    /// stops the build once the directory's name no longer reaches it.
    var pin: OutputLock?
    /// The remote cache this build shares objects through, if any.
    var speechCache: SpeechCache?
    /// Once the cache fails in a build it is not asked again, by any stage.
    let remoteCacheHealth = RemoteCacheHealth()
    /// This build's part of the book (`--shard`); nil for all of it.
    var shard: Shard?
    /// What this shard finishes and which items it makes; nil for all of the book.
    var shardAssignment: ShardAssignment?
    /// The chapters this shard finishes whole (``Shard/chapters(of:)``).
    var shardChapters: Set<Int> { shardAssignment?.chapters ?? [] }

    /// The remote cache as a stage uses it: the build's shared health, the recipe's `required`,
    /// warnings as diagnostics. A stage adds the session's traffic to its own.
    func cacheSession(_ remote: RemoteCache) -> CacheSession {
        CacheSession(
            remote: remote, health: remoteCacheHealth, required: recipe.cache?.required == true, store: store,
            manifest: manifest, cancellation: cancellation, warn: { [progress] in progress(.diagnostic($0)) })
    }

    /// One warning and no more use of the cache in this build; with `cache.required`, the build stops.
    func cacheFailed(_ error: RemoteCacheError) throws {
        try CacheSession.fail(
            error, health: remoteCacheHealth, required: recipe.cache?.required == true,
            cache: recipe.cache?.name ?? "", cancellation: cancellation, warn: { progress(.diagnostic($0)) })
    }
}
