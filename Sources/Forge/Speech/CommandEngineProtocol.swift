/// The messages of Forge's command-engine protocol (`docs/engines.md`): JSON Lines over the
/// engine's standard input and output, one request answered by one response, in order.
package enum CommandEngineProtocol {
    /// The protocol version this Forge speaks.
    package static let version = 1

    /// The engine's first line, before any request: who it is. `version` is part of every audio key.
    package struct Hello: Sendable, Codable, Equatable {
        package var `protocol`: Int
        package var engine: String
        package var version: String
    }

    /// One item to speak. `text` is what to say (after the lexicon); `output` is where to write a
    /// WAV file (any sample rate; Forge resamples).
    package struct Request: Sendable, Codable, Equatable {
        package var id: String
        package var text: String
        package var voice: String
        package var options: [String: String]
        package var output: String
    }

    /// A word's time in the audio; `start`/`end` are Unicode code point offsets in the request text.
    package struct WordTime: Sendable, Codable, Equatable {
        package var start: Int
        package var end: Int
        package var startMs: Int
        package var endMs: Int
    }

    /// A phoneme's time in the audio, as the engine names it.
    package struct PhonemeTime: Sendable, Codable, Equatable {
        package var phoneme: String
        package var startMs: Int
        package var endMs: Int
    }

    /// The answer to a request: the audio written, or an error a person can read.
    package struct Response: Sendable, Codable, Equatable {
        package var id: String
        package var audio: String?
        package var durationMs: Int?
        package var words: [WordTime]?
        package var phonemes: [PhonemeTime]?
        package var error: String?
    }
}
