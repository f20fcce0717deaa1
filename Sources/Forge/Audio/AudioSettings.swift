/// How synthesized audio is encoded.
package struct AudioSettings: Sendable, Equatable, Codable {
    /// The keys of the recipe's `audio` object (read by `AudioSettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case format, sampleRate }

    /// Container and codec of audio objects.
    package enum Format: String, Sendable, CaseIterable, Codable {
        case wav
        case flac
        case ogg
        case mp3
        /// Opus in an Ogg container (`.opus`); libsndfile encodes it at 8, 16, 24 or 48 kHz only.
        case opus

        package var fileExtension: String { rawValue }

        /// Whether decoding gives back exactly the samples encoded (lossy codecs may pad).
        package var isLossless: Bool { self == .wav || self == .flac }

        /// The sample rates this format can be written at (nil: any of ``AudioSettings/allowedSampleRates``).
        package var sampleRates: [Int]? { self == .opus ? AudioSettings.opusSampleRates : nil }

        package var mimeType: String {
            switch self {
            case .wav: return "audio/wav"
            case .flac: return "audio/flac"
            case .ogg: return "audio/ogg"
            case .mp3: return "audio/mpeg"
            case .opus: return "audio/ogg; codecs=opus"
            }
        }
    }

    package static let allowedSampleRates = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000]
    /// The rates Opus is written at (of ``allowedSampleRates``); 48 kHz is Opus's own.
    package static let opusSampleRates = [8000, 16000, 24000, 48000]

    package var format: Format
    /// Output sample rate in Hz; espeak-ng speaks at 22,050 Hz and other rates are resampled.
    package var sampleRate: Int

    package init(format: Format = .wav, sampleRate: Int = 22050) {
        self.format = format
        self.sampleRate = sampleRate
    }
}
