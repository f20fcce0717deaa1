/// The messages of Forge's command-engine protocol (`docs/engines.md`): JSON Lines over the
/// engine's standard input and output, one request answered by one response, in order.
public enum CommandEngineProtocol {
    /// The protocol version this Forge speaks.
    public static let version = 1

    /// The engine's first line, before any request: who it is. `version` is part of every audio key.
    public struct Hello: Sendable, Codable, Equatable {
        public var `protocol`: Int
        public var engine: String
        public var version: String
    }

    /// One item to speak. `text` is what to say (after the lexicon); `output` is where to write a
    /// WAV file (any sample rate; Forge resamples).
    public struct Request: Sendable, Codable, Equatable {
        public var id: String
        public var text: String
        public var voice: String
        public var options: [String: String]
        public var output: String
    }

    /// A word's time in the audio; `start`/`end` are Unicode code point offsets in the request text.
    public struct WordTime: Sendable, Codable, Equatable {
        public var start: Int
        public var end: Int
        public var startMs: Int
        public var endMs: Int
    }

    /// A phoneme's time in the audio, as the engine names it.
    public struct PhonemeTime: Sendable, Codable, Equatable {
        public var phoneme: String
        public var startMs: Int
        public var endMs: Int
    }

    /// The answer to a request: the audio written, or an error a person can read.
    public struct Response: Sendable, Codable, Equatable {
        public var id: String
        public var audio: String?
        public var durationMs: Int?
        public var words: [WordTime]?
        public var phonemes: [PhonemeTime]?
        public var error: String?
    }
}
