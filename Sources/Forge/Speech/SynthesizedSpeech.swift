/// Raw 16-bit mono PCM and the synthesizer's events for one item.
public struct SynthesizedSpeech: Sendable {
    public var samples: [Int16]
    public var sampleRate: Int
    public var events: [SynthesisEvent]

    public var durationMs: Int { sampleRate > 0 ? Int((Int64(samples.count) * 1000) / Int64(sampleRate)) : 0 }

    public init(samples: [Int16], sampleRate: Int, events: [SynthesisEvent]) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.events = events
    }
}
