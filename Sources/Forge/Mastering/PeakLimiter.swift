import Foundation

/// A look-ahead peak limiter: no output sample exceeds the ceiling, and the gain moves smoothly.
///
/// Each sample needs a gain of at most ceiling / |x|. The gain applied to a sample is the mean,
/// over a look-ahead window, of the windowed minimum of those needs — so it has already ramped down
/// when a peak arrives and is never above what any sample in reach needs — then recovers no faster
/// than the release allows. ``StreamingPeakLimiter`` computes it on a stream, holding only the
/// look-ahead.
struct PeakLimiter {
    /// Look-ahead and attack, and the release (time to recover about 63% of a reduction).
    static let lookAheadMs = 5.0
    static let releaseMs = 40.0

    /// `samples` times `gain`, limited to `ceiling` (linear, full scale 1), as 16-bit samples: the
    /// whole array through ``StreamingPeakLimiter``.
    static func apply(_ samples: [Int16], gain: Float, ceiling: Float, sampleRate: Int) -> [Int16] {
        let limiter = StreamingPeakLimiter(gain: gain, ceiling: ceiling, sampleRate: sampleRate)
        return limiter.process(samples[...]) + limiter.finish()
    }
}
