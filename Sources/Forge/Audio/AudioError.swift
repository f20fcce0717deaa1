import Foundation

/// Why an audio file could not be read.
public enum AudioError: LocalizedError, Sendable, Equatable {
    case unreadable(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read it as audio: \(reason). Forge reads WAV, FLAC, Ogg (Vorbis/Opus) and MP3; convert other formats first (e.g. `ffmpeg -i in.m4a out.flac`)."
        }
    }
}
