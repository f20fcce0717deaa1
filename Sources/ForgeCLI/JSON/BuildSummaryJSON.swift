import Forge
import Foundation

/// The closing `summary` line of a build's `--json` output: what the build did, or, when it could
/// not run or finish, its exit code and error. Absent groups (remote cache, shard, verification,
/// reproducibility check) are left out.
struct BuildSummaryJSON: Encodable {
    let event = "summary"
    var build: Int64?
    var output: String
    var items: Int?
    var upToDate: Int?
    var synthesized: Int?
    var reused: Int?
    var aligned: Int?
    var failed: Int?
    var remaining: Int?
    var cancelled: Bool
    var audioMs: Int?
    var elapsedSeconds: JSONNull<Double>?
    var exitCode: Int32
    var nothingToDo: Bool?
    var exported: Int?
    var encodedChapters: Int?
    var downloadedEncodings: Int?
    var transcribedChunks: Int?
    var downloadedACXFiles: Int?
    var failures: [FailedItemJSON]?
    var error: String?
    var diagnostic: Diagnostic?

    var remoteCache: String?
    var downloaded: Int?
    var downloadedBytes: Int?
    var uploaded: Int?
    var uploadedBytes: Int?
    var downloadedChunks: Int?
    var uploadedChunks: Int?
    var downloadedAlignments: Int?
    var uploadedAlignments: Int?
    var remoteCacheAvailable: Bool?
    var spotChecked: Int?
    var spotCheckMismatches: Int?
    /// Items whose audio stayed in the cache, and the audio fetched later in the build because a stage read it.
    var leftInCache: Int?
    var leftInCacheBytes: Int?
    var fetchedAudio: Int?
    var fetchedAudioBytes: Int?

    /// What each speech service was asked.
    var services: [ServiceJSON]?

    var reproducibilityChecked: Int?
    var reproducibilityDiffering: [String]?

    var shard: String?
    var leftToOtherShards: Int?
    var uploadedEncodings: Int?
    var masteredACXFiles: Int?
    var uploadedACXFiles: Int?

    var verified: Bool?
    var verificationPassed: Bool?
    var wordErrorRate: JSONNull<Double>?
    var failingChunks: [FailingChunk]?
    var verificationMode: String?
    var flaggedItems: [String]?
    var verificationUnavailable: String?

    struct ServiceJSON: Encodable {
        var engine: String
        var requests: Int
        var characters: Int
        var retries: Int
        var failedItems: Int
    }

    struct FailingChunk: Encodable {
        var chapter: Int
        var chunk: Int
        var wordErrorRate: JSONNull<Double>
        var flaggedItems: [String]
    }

    init(_ summary: BuildSummary) {
        build = summary.buildID
        output = summary.outputDirectory
        items = summary.itemsTotal
        upToDate = summary.upToDate
        synthesized = summary.synthesized
        reused = summary.reused
        aligned = summary.aligned
        failed = summary.failed.count
        remaining = summary.remaining
        cancelled = summary.cancelled
        audioMs = summary.audioMs
        elapsedSeconds = JSONOutput.rounded(summary.elapsedSeconds, places: 3)
        exitCode = ForgeExitCode(summary.outcome).rawValue
        nothingToDo = summary.nothingToDo
        exported = summary.exportedFiles.count
        encodedChapters = summary.encodedChapters
        downloadedEncodings = summary.downloadedEncodings
        transcribedChunks = (summary.verification?.transcribedChunks ?? 0) + summary.shardTranscribedChunks
        downloadedACXFiles = summary.downloadedACXFiles
        failures = summary.failed.map { FailedItemJSON(id: $0.itemID, error: $0.error) }
        if let cache = summary.remoteCache {
            remoteCache = cache.cache
            downloaded = cache.downloaded
            downloadedBytes = cache.downloadedBytes
            uploaded = cache.uploaded
            uploadedBytes = cache.uploadedBytes
            downloadedChunks = cache.downloadedChunks
            uploadedChunks = cache.uploadedChunks
            downloadedAlignments = cache.downloadedAlignments
            uploadedAlignments = cache.uploadedAlignments
            remoteCacheAvailable = cache.available
            spotChecked = cache.spotChecked
            spotCheckMismatches = cache.spotCheckMismatches
            leftInCache = cache.leftInCache
            leftInCacheBytes = cache.leftInCacheBytes
            fetchedAudio = cache.fetchedAudio
            fetchedAudioBytes = cache.fetchedAudioBytes
        }
        if !summary.services.isEmpty {
            services = summary.services.map {
                ServiceJSON(
                    engine: $0.engine, requests: $0.requests, characters: $0.characters, retries: $0.retries,
                    failedItems: $0.failedItems)
            }
        }
        if let check = summary.reproducibility {
            reproducibilityChecked = check.checked
            reproducibilityDiffering = check.differing
        }
        if let shard = summary.shard {
            self.shard = shard.description
            leftToOtherShards = summary.leftToOtherShards
            uploadedEncodings = summary.uploadedEncodings
            masteredACXFiles = summary.masteredACXFiles
            uploadedACXFiles = summary.uploadedACXFiles
        }
        if let verification = summary.verification {
            verified = verification.available
            verificationPassed = verification.passed
            wordErrorRate = JSONOutput.rounded(verification.wordErrorRate, places: 4)
            failingChunks = verification.failingChunks.map { chunk in
                FailingChunk(
                    chapter: chunk.chapter, chunk: chunk.index,
                    wordErrorRate: JSONOutput.rounded(chunk.wordErrorRate, places: 4),
                    flaggedItems: chunk.flaggedItems.map(\.itemID))
            }
            verificationMode = verification.mode.rawValue
            flaggedItems = verification.flaggedItemIDs.sorted()
            verificationUnavailable = verification.unavailableReason
        }
    }

    /// The summary of a build that could not run or finish: its exit code and the message (also
    /// printed on standard error), so a CI log always ends with one.
    init(_ failure: CommandFailure, outputDirectory: String) {
        output = outputDirectory
        exitCode = failure.code.rawValue
        cancelled = failure.code == .cancelled
        error = failure.message
        diagnostic = failure.diagnostic
    }
}
