import Foundation

/// Why a stage could not run at all (as opposed to an item failing).
package enum PipelineError: LocalizedError, Sendable, Equatable {
    case nothingSplit(outputDirectory: String)
    /// `--shard` without a writable remote cache: the shard's work would reach no other machine.
    case shardWithoutCache
    case engineUnavailable(String)
    case verificationUnavailable(reason: String)
    /// The recording given to `forge align narration --audio` cannot be read, or holds no audio.
    case unreadableRecording(path: String, reason: String)
    /// A recording too short to hold the text within the share of unmatched text that passes.
    case recordingTooShort(path: String, durationMs: Int, words: Int, heldShare: Double)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .shardWithoutCache:
            return (
                "A shard build shares its items through a remote cache, and this build has none it may write to.",
                "Give it a remote cache it may write to (the recipe's \"cache\": {\"remote\": …} or FORGE_REMOTE_CACHE), not a read-only one."
            )
        case .nothingSplit(let directory):
            return ("\(directory): no items to speak.", "Split or build the recipe first.")
        case .engineUnavailable(let reason):
            return (reason, nil)
        case .unreadableRecording(let path, let reason):
            return (
                "\(path): the recording cannot be read: \(reason).",
                "Give a WAV, FLAC, Ogg (Vorbis/Opus) or MP3 file with audio in it (convert others first, e.g. `ffmpeg -i in.m4a out.flac`)."
            )
        case .recordingTooShort(let path, let durationMs, let words, let heldShare):
            return (
                "\(path): the recording is \(NarrationImport.clock(durationMs)) long, too short for the text's \(words) words: even read at \(NarrationImport.fastestWordsPerMinute) words a minute it would hold \(String(format: "%.1f", 100 * heldShare))% of them.",
                "Give the recording of this text; to align the part of the text a shorter recording holds, allow that much of the text to go unheard."
            )
        case .verificationUnavailable(let reason):
            return (
                "the recipe requires verification (verify.required), but it cannot run: \(reason)",
                "Install the recognizer, or set verify.required to false to build without it."
            )
        }
    }
}

extension PipelineError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unreadableRecording, .recordingTooShort, .shardWithoutCache: .badInput
        case .nothingSplit, .engineUnavailable, .verificationUnavailable: .cannotRun
        }
    }
}
