/// Raw 16-bit mono PCM and the synthesizer's events for one item.
package struct SynthesizedSpeech: Sendable {
    package var samples: [Int16]
    package var sampleRate: Int
    package var events: [SynthesisEvent]
    /// False when the engine gave no word timings for this item (its words are then placed by forced
    /// alignment); nil for engines that always give them.
    package var wordsTimed: Bool?
    /// Phoneme timings an engine reported, kept for players that animate speech.
    package var phonemes: [CommandEngineProtocol.PhonemeTime]?

    package var durationMs: Int { sampleRate > 0 ? Int((Int64(samples.count) * 1000) / Int64(sampleRate)) : 0 }

    package init(
        samples: [Int16], sampleRate: Int, events: [SynthesisEvent], wordsTimed: Bool? = nil,
        phonemes: [CommandEngineProtocol.PhonemeTime]? = nil
    ) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.events = events
        self.wordsTimed = wordsTimed
        self.phonemes = phonemes
    }
}
