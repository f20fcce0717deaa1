import CEbur128
import Foundation

/// libebur128: loudness per ITU-R BS.1770 / EBU R128 — integrated loudness, loudness range,
/// sample peak and true peak — measured as audio streams through it, so memory does not grow
/// with the length of what is measured. The one file that imports `CEbur128`.
///
/// A mono signal is measured as one channel (as ffmpeg's `ebur128` filter does by default).
final class LoudnessMeter {
    /// The libebur128 state, owned by this meter alone and used by one thread at a time (a meter
    /// is created, fed and read within one measurement); destroyed in `deinit`.
    private var state: UnsafeMutablePointer<ebur128_state>?
    let sampleRate: Int

    /// What a meter measures: everything (a check's levels), or for mastering's passes only what
    /// each needs: integrated loudness alone is several times faster than with true peaks (no 4×
    /// oversampling), and the two together skip the loudness range's short-term blocks.
    enum Measures {
        case all, loudness, loudnessAndTruePeak
    }

    init(sampleRate: Int, measuring measures: Measures = .all) throws(MasteringError) {
        let mode =
            switch measures {
            case .all: Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
            case .loudness: Int32(EBUR128_MODE_I.rawValue)
            case .loudnessAndTruePeak: Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
            }
        guard sampleRate > 0, let state = ebur128_init(1, UInt(sampleRate), mode) else {
            throw .meterUnavailable("libebur128 could not start at \(sampleRate) Hz")
        }
        self.state = state
        self.sampleRate = sampleRate
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Feeds mono 16-bit samples.
    func add(_ samples: ArraySlice<Int16>) {
        guard !samples.isEmpty else { return }
        samples.withUnsafeBufferPointer { buffer in
            _ = ebur128_add_frames_short(state, buffer.baseAddress, buffer.count)
        }
    }

    /// Feeds mono samples at full scale ±1.
    func add(_ samples: [Float]) {
        guard !samples.isEmpty else { return }
        samples.withUnsafeBufferPointer { buffer in
            _ = ebur128_add_frames_float(state, buffer.baseAddress, buffer.count)
        }
    }

    /// Integrated loudness in LUFS (−∞ for silence).
    var integratedLoudness: Double {
        var value = 0.0
        return ebur128_loudness_global(state, &value) == Int32(EBUR128_SUCCESS.rawValue) ? value : -.infinity
    }

    /// Loudness range in LU.
    var loudnessRange: Double {
        var value = 0.0
        return ebur128_loudness_range(state, &value) == Int32(EBUR128_SUCCESS.rawValue) ? value : 0
    }

    /// The highest sample, in dBFS.
    var samplePeak: Double {
        var value = 0.0
        guard ebur128_sample_peak(state, 0, &value) == Int32(EBUR128_SUCCESS.rawValue) else { return -.infinity }
        return Self.decibels(value)
    }

    /// The highest inter-sample peak (4× oversampled, per BS.1770-4), in dBTP.
    var truePeak: Double {
        var value = 0.0
        guard ebur128_true_peak(state, 0, &value) == Int32(EBUR128_SUCCESS.rawValue) else { return -.infinity }
        return Self.decibels(value)
    }

    /// libebur128's version, e.g. "1.2.6".
    static var version: String {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        ebur128_get_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    static func decibels(_ linear: Double) -> Double {
        linear > 0 ? 20 * log10(linear) : -.infinity
    }
}
