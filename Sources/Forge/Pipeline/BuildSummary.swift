/// The result of a build run.
public struct BuildSummary: Sendable, Equatable {
    public var buildID: Int64
    public var outputDirectory: String
    public var itemsTotal: Int
    /// Items that were already current and needed nothing.
    public var upToDate: Int
    public var synthesized: Int
    public var reused: Int
    public var aligned: Int
    public var failed: [ItemFailure]
    /// Items still not done (pending or failed) when the run ended.
    public var remaining: Int
    public var cancelled: Bool
    /// Total audio of all done items, in milliseconds.
    public var audioMs: Int
    public var elapsedSeconds: Double
    /// Files the recipe's `exports` wrote (relative to the output directory); empty when the
    /// exports were already current or none are asked for.
    public var exportedFiles: [String] = []
    /// The verification report, when the recipe has a `verify` block and the build is complete.
    public var verification: VerifyReport?

    /// What the remote cache gave and took; nil without one.
    public var remoteCache: RemoteCacheUse?
    /// The part of the items this build made (`--shard`), and how many items it left to the other shards.
    public var shard: Shard?
    public var leftToOtherShards = 0

    /// A build's exchange with the remote cache.
    public struct RemoteCacheUse: Sendable, Equatable {
        public var cache: String
        public var downloaded: Int
        public var downloadedBytes: Int
        public var uploaded: Int
        public var uploadedBytes: Int
        /// Verification chunks taken from the cache, and sent to it.
        public var downloadedChunks = 0
        public var uploadedChunks = 0
        /// Forced alignments taken from the cache, and sent to it.
        public var downloadedAlignments = 0
        public var uploadedAlignments = 0
        /// False when the cache failed during the build (a warning said so) and the build went on locally.
        public var available: Bool
    }

    /// True when nothing had to be made or changed.
    public var nothingToDo: Bool { synthesized == 0 && reused == 0 && aligned == 0 && (remoteCache?.downloaded ?? 0) == 0 && failed.isEmpty && !cancelled }

    /// 0 ok, 1 built with failed items, 130 cancelled.
    /// Verification that could run and did not pass (unavailable verification fails a build only
    /// when required, which stops it before a summary).
    public var exitCode: Int32 {
        let verificationFailed = verification.map { $0.available && !$0.passed } ?? false
        return cancelled ? 130 : (failed.isEmpty && !verificationFailed ? 0 : 1)
    }
}
