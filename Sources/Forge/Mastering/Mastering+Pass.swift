import Foundation

extension Mastering {
    /// What one pass at a drive (gain less ceiling, dB) tells, relative to the ceiling: the
    /// loudness, the RMS and the true peak of the limited audio less the ceiling.
    struct Pass {
        var drive: Double
        var loudness: Double
        var rms: Double
        var truePeak: Double

        /// The highest ceiling at which this drive keeps true peaks and sample peaks under theirs.
        func ceiling(_ settings: MasteringSettings) -> Double {
            min(settings.samplePeakCeiling ?? 0, settings.truePeakCeiling - Mastering.truePeakMargin - truePeak)
        }

        /// How far over the target this drive lands at its ceiling (negative: short of it), LU.
        func excess(_ settings: MasteringSettings) -> Double {
            ceiling(settings) + loudness - settings.integratedLoudness
        }

        /// How far over the RMS bound this drive lands at its ceiling, dB (−∞ without a bound).
        func rmsExcess(_ settings: MasteringSettings) -> Double {
            settings.maximumRMS.map { ceiling(settings) + rms - $0 } ?? -.infinity
        }

        /// What the drive search brings to zero: the loudness's excess, or the RMS's when that binds.
        func objective(_ settings: MasteringSettings) -> Double {
            max(excess(settings), rmsExcess(settings) + Mastering.rmsMargin)
        }

        /// The drive meets the settings: the loudness within tolerance, or as loud as the RMS allows.
        func meets(_ settings: MasteringSettings) -> Bool {
            let (excess, rmsExcess) = (excess(settings), rmsExcess(settings))
            guard rmsExcess <= 0 else { return false }
            return abs(excess) <= Mastering.tolerance || (excess < 0 && rmsExcess >= -2 * Mastering.rmsMargin)
        }
    }
}
