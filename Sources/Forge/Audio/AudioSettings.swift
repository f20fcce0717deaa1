/// How synthesized audio is encoded.
public struct AudioSettings: Sendable, Equatable, Codable {
    /// The keys of the recipe's `audio` object; the recipe loader refuses others.
    public static let recipeKeys = ["format", "sampleRate"]

    /// Container and codec of audio objects.
    public enum Format: String, Sendable, CaseIterable, Codable {
        case wav
        case flac
        case ogg
        case mp3
        /// Opus in an Ogg container (`.opus`); libsndfile encodes it at 8, 16, 24 or 48 kHz only.
        case opus

        public var fileExtension: String { rawValue }

        /// The sample rates this format can be written at (nil: any of ``AudioSettings/allowedSampleRates``).
        public var sampleRates: [Int]? { self == .opus ? AudioSettings.opusSampleRates : nil }

        public var mimeType: String {
            switch self {
            case .wav: return "audio/wav"
            case .flac: return "audio/flac"
            case .ogg: return "audio/ogg"
            case .mp3: return "audio/mpeg"
            case .opus: return "audio/ogg; codecs=opus"
            }
        }
    }

    public static let allowedSampleRates = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000]
    /// The rates Opus is written at (of ``allowedSampleRates``); 48 kHz is Opus's own.
    public static let opusSampleRates = [8000, 16000, 24000, 48000]

    public var format: Format
    /// Output sample rate in Hz; espeak-ng speaks at 22,050 Hz and other rates are resampled.
    public var sampleRate: Int

    public init(format: Format = .wav, sampleRate: Int = 22050) {
        self.format = format
        self.sampleRate = sampleRate
    }
}
