import Foundation

/// Why audio could not be read or written.
package enum AudioError: LocalizedError, Sendable, Equatable {
    case unreadable(path: String, reason: String)
    case encodingFailed(path: String, reason: String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .unreadable(let path, let reason):
            return (
                "\(path): cannot read it as audio: \(reason).",
                "Forge reads WAV, FLAC, Ogg (Vorbis/Opus) and MP3; convert other formats first (e.g. `ffmpeg -i in.m4a out.flac`)."
            )
        case .encodingFailed(let path, let reason):
            return (
                "\(path): encoding the audio failed: \(reason).",
                "Check free disk space and the audio format in the recipe."
            )
        }
    }
}

extension AudioError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unreadable, .encodingFailed: .cannotRun
        }
    }
}
