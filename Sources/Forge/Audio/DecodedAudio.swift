/// Mono 16-bit PCM read from an audio file or object.
public struct DecodedAudio: Sendable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Length in milliseconds.
    public var durationMs: Int { sampleRate > 0 ? Int(Int64(samples.count) * 1000 / Int64(sampleRate)) : 0 }
}
