import Foundation

/// The content of an events object: what the synthesizer reported while making one audio object.
/// Alignment is recomputed from it, so a lost manifest never costs synthesis.
public struct SpeechEventsDocument: Sendable, Equatable, Codable {
    public var engine: String
    public var engineVersion: String
    public var audioKey: String
    public var durationMs: Int
    public var sampleRate: Int
    public var events: [SynthesisEvent]

    public init(engine: String, engineVersion: String, audioKey: String, durationMs: Int, sampleRate: Int, events: [SynthesisEvent]) {
        self.engine = engine
        self.engineVersion = engineVersion
        self.audioKey = audioKey
        self.durationMs = durationMs
        self.sampleRate = sampleRate
        self.events = events
    }

    public func encoded() -> Data {
        // Synthesized Codable encodes keys in declaration order, so the bytes are deterministic without sorting.
        return (try? JSONEncoder().encode(self)) ?? Data()
    }

    public static func decode(_ data: Data) throws -> SpeechEventsDocument {
        try JSONDecoder().decode(SpeechEventsDocument.self, from: data)
    }
}
