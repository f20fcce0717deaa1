import Foundation

/// The content of an events object: what the synthesizer reported while making one audio object.
/// Alignment is recomputed from it, so a lost manifest never costs synthesis.
package struct SpeechEventsDocument: Sendable, Equatable, Codable {
    package var engine: String
    package var engineVersion: String
    package var audioKey: String
    package var durationMs: Int
    package var sampleRate: Int
    package var events: [SynthesisEvent]
    /// False when the engine gave no word timings (a command engine): the words are then placed
    /// by forced alignment. Nil in documents from before command engines, which are all timed.
    package var wordsTimed: Bool?
    /// Phoneme timings a command engine reported, kept for players that animate speech.
    package var phonemes: [CommandEngineProtocol.PhonemeTime]?

    /// Whether `events` place the words.
    package var hasWordTimings: Bool { wordsTimed ?? true }

    package init(
        engine: String, engineVersion: String, audioKey: String, durationMs: Int, sampleRate: Int,
        events: [SynthesisEvent],
        wordsTimed: Bool? = nil, phonemes: [CommandEngineProtocol.PhonemeTime]? = nil
    ) {
        self.wordsTimed = wordsTimed
        self.phonemes = phonemes
        self.engine = engine
        self.engineVersion = engineVersion
        self.audioKey = audioKey
        self.durationMs = durationMs
        self.sampleRate = sampleRate
        self.events = events
    }

    package func encoded() -> Data {
        if let direct = directJSON() { return direct }
        // Sorted: Foundation on Linux writes a keyed container's keys in hash order, which changes
        // from one process to the next (the same item's events came out other bytes in two builds).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    package static func decode(_ data: Data) throws -> SpeechEventsDocument {
        if let direct = data.withUnsafeBytes({ direct($0) }) { return direct }
        return try JSONDecoder().decode(SpeechEventsDocument.self, from: data)
    }
}
