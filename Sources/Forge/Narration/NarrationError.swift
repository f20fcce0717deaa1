import Foundation

/// Why a narration's recording cannot be aligned at all (as opposed to words not heard in it).
package enum NarrationError: LocalizedError, Sendable, Equatable {
    /// The recording cannot be read, or holds no audio.
    case unreadableRecording(path: String, reason: String)
    /// A recording too short to hold the text within the share of unmatched text that passes.
    case recordingTooShort(path: String, durationMs: Int, words: Int, heldShare: Double)

    package var errorDescription: String? { message.problem }

    /// What to do about it.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String) {
        switch self {
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
        }
    }
}

extension NarrationError: ClassifiedFailure {
    /// Both are bad input: the command line exits 2.
    package var failureKind: FailureKind { .badInput }
}
