/// The loudness and levels of one stretch of audio (a chapter, or a whole book): what ACX and
/// EBU R128 specify, measured by ``AudioLevelMeter``.
package struct AudioLevels: Sendable, Equatable, Codable {
    /// Integrated loudness, LUFS (BS.1770 gated; −∞ for silence).
    package var integratedLoudness: Double
    /// Loudness range, LU.
    package var loudnessRange: Double
    /// Highest sample, dBFS.
    package var samplePeak: Double
    /// Highest inter-sample peak, dBTP.
    package var truePeak: Double
    /// RMS of the whole stretch, dBFS (a full-scale square wave is 0).
    package var rms: Double
    /// RMS of the quietest half second, dBFS (−∞ for digital silence).
    package var noiseFloor: Double
    /// Silence before the first sound and after the last, milliseconds.
    package var headSilenceMs: Int
    package var tailSilenceMs: Int
    package var durationMs: Int
}
