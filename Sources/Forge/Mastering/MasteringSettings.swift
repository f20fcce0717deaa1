/// How exported audio is mastered (the recipe's `mastering`): a loudness target reached by gain,
/// peaks held under a ceiling by a limiter, and room tone at the head and tail of each chapter.
/// Applied when exporting; objects stay as synthesized, so their keys never change with it.
package struct MasteringSettings: Sendable, Equatable, Hashable, Codable {
    /// The keys of the recipe's `mastering` object (read by `MasteringSettings.read(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable {
        case profile, integratedLoudness, truePeak, samplePeak, maximumRMS, headMs, tailMs
    }

    package static let allowedLoudness = -40.0 ... -5.0
    package static let allowedPeaks = -20.0...0.0
    package static let allowedRoomTone = 0...10_000

    /// The profile it started from ("acx", "ebu-r128", "podcast") or "custom".
    package var profile: String
    /// Integrated loudness to reach, LUFS.
    package var integratedLoudness: Double
    /// Highest true peak, dBTP; the limiter holds inter-sample peaks under it.
    package var truePeakCeiling: Double
    /// Highest sample peak, dBFS (ACX measures sample peaks); nil: the true-peak ceiling only.
    package var samplePeakCeiling: Double?
    /// The RMS a chapter may not exceed, dBFS (ACX's upper bound less a margin); nil: no bound.
    package var maximumRMS: Double?
    /// Silence before each chapter's first item and after its last, milliseconds (nil: the
    /// export's usual chapter pause at the tail, none at the head).
    package var headMs: Int?
    package var tailMs: Int?

    package init(
        profile: String = "custom", integratedLoudness: Double, truePeakCeiling: Double,
        samplePeakCeiling: Double? = nil,
        maximumRMS: Double? = nil, headMs: Int? = nil, tailMs: Int? = nil
    ) {
        self.profile = profile
        self.integratedLoudness = integratedLoudness
        self.truePeakCeiling = truePeakCeiling
        self.samplePeakCeiling = samplePeakCeiling
        self.maximumRMS = maximumRMS
        self.headMs = headMs
        self.tailMs = tailMs
    }

    /// ACX: −18 LUFS (the 44.1 kHz MP3s measure about 0.3 LU lower; RMS about −18.7 dBFS, inside
    /// ACX's −23…−18, at most −18.3), true peaks under −3.4 dBTP (which the MP3's sample peaks
    /// follow, within ACX's −3 dBFS), 0.75 s of room tone at the head, 2 s at the tail.
    package static let acx = MasteringSettings(
        profile: "acx", integratedLoudness: -18.0, truePeakCeiling: -3.4, samplePeakCeiling: -3.5, maximumRMS: -18.3,
        headMs: 750, tailMs: 2000)
    /// EBU R128: −23 LUFS, true peak under −1.5 dBTP (the limit is −1).
    package static let ebuR128 = MasteringSettings(profile: "ebu-r128", integratedLoudness: -23, truePeakCeiling: -1.5)
    /// Podcasts and streaming: −16 LUFS, true peak under −1.5 dBTP.
    package static let podcast = MasteringSettings(profile: "podcast", integratedLoudness: -16, truePeakCeiling: -1.5)

    package static let profiles = [acx, ebuR128, podcast]

    package static func profile(named name: String) -> MasteringSettings? {
        profiles.first { $0.profile == name.lowercased() }
    }
}
