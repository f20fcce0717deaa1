/// The result of a build run.
package struct BuildSummary: Sendable, Equatable {
    package var buildID: Int64
    package var outputDirectory: String
    package var itemsTotal: Int
    /// Items that were already current and needed nothing.
    package var upToDate: Int
    package var synthesized: Int
    package var reused: Int
    package var aligned: Int
    package var failed: [ItemFailure]
    /// Items still not done (pending or failed) when the run ended.
    package var remaining: Int
    package var cancelled: Bool
    /// Total audio of all done items, in milliseconds.
    package var audioMs: Int
    package var elapsedSeconds: Double
    /// Files the recipe's `exports` wrote (relative to the output directory); empty when the
    /// exports were already current or none are asked for.
    package var exportedFiles: [String] = []
    /// Chapters whose AAC encoding this build made, and those it took from the remote cache.
    package var encodedChapters = 0
    package var downloadedEncodings = 0
    /// A shard's: its chapters' encodings sent to the remote cache, and its verification chunks transcribed.
    package var uploadedEncodings = 0
    /// ACX chapter files taken from the remote cache; a shard's mastered and sent to it.
    package var downloadedACXFiles = 0
    package var masteredACXFiles = 0
    package var uploadedACXFiles = 0
    package var shardTranscribedChunks = 0
    /// The verification report, when the recipe has a `verify` block and the build is complete.
    package var verification: VerifyReport?

    /// What the remote cache gave and took; nil without one.
    package var remoteCache: RemoteCacheUse?
    /// The part of the items this build made (`--shard`), and how many items it left to the other shards.
    package var shard: Shard?
    /// What `--check-reproducible` found: items made again, and those whose bytes differ.
    package var reproducibility: ReproducibilityCheck?
    /// Warnings about the book itself (chapters whose headings were probably not found), said
    /// when the build began and again with its summary.
    package var warnings: [Diagnostic] = []

    package struct ReproducibilityCheck: Sendable, Equatable {
        package var checked: Int
        package var differing: [String]
    }
    package var leftToOtherShards = 0
    /// What each speech service was asked (requests, characters, retries), by engine name.
    package var services: [SpeechServiceUsage] = []

    /// A build's exchange with the remote cache.
    package struct RemoteCacheUse: Sendable, Equatable {
        package var cache: String
        package var downloaded: Int
        package var downloadedBytes: Int
        package var uploaded: Int
        package var uploadedBytes: Int
        /// Verification chunks taken from the cache, and sent to it.
        package var downloadedChunks = 0
        package var uploadedChunks = 0
        /// Forced alignments taken from the cache, and sent to it.
        package var downloadedAlignments = 0
        package var uploadedAlignments = 0
        /// False when the cache failed during the build (a warning said so) and the build went on locally.
        package var available: Bool
        /// Hits made here and compared with the cache's digest, and how many differed.
        package var spotChecked = 0
        package var spotCheckMismatches = 0
        /// Items taken from the cache whose audio stayed there (events and measures downloaded), and the audio's bytes.
        package var leftInCache = 0
        package var leftInCacheBytes = 0
        /// Audio left in the cache that a later stage fetched because it read the samples, and its bytes.
        package var fetchedAudio = 0
        package var fetchedAudioBytes = 0
    }

    /// True when nothing had to be made or changed.
    package var nothingToDo: Bool {
        synthesized == 0 && reused == 0 && aligned == 0 && (remoteCache?.downloaded ?? 0) == 0 && failed.isEmpty
            && !cancelled
    }

    /// How a build that ran ended, for its exit code.
    package enum Outcome: Sendable, Equatable {
        case succeeded
        /// Items failed, verification that could run did not pass (unavailable verification fails
        /// a build only when required, which stops it before a summary), or a reproducibility check
        /// found items whose bytes differ.
        case itemsFailed
        case cancelled
    }

    package var outcome: Outcome {
        let verificationFailed = verification.map { $0.available && !$0.passed } ?? false
        let irreproducible = !(reproducibility?.differing.isEmpty ?? true)
        if cancelled { return .cancelled }
        return failed.isEmpty && !verificationFailed && !irreproducible ? .succeeded : .itemsFailed
    }
}
