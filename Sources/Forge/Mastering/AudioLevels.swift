/// The loudness and levels of one stretch of audio (a chapter, or a whole book): what ACX and
/// EBU R128 specify, measured by ``AudioLevelMeter``.
public struct AudioLevels: Sendable, Equatable, Codable {
    /// Integrated loudness, LUFS (BS.1770 gated; −∞ for silence).
    public var integratedLoudness: Double
    /// Loudness range, LU.
    public var loudnessRange: Double
    /// Highest sample, dBFS.
    public var samplePeak: Double
    /// Highest inter-sample peak, dBTP.
    public var truePeak: Double
    /// RMS of the whole stretch, dBFS (a full-scale square wave is 0).
    public var rms: Double
    /// RMS of the quietest half second, dBFS (−∞ for digital silence).
    public var noiseFloor: Double
    /// Silence before the first sound and after the last, milliseconds.
    public var headSilenceMs: Int
    public var tailSilenceMs: Int
    public var durationMs: Int
}
