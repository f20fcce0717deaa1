/// A delivery specification audio is checked against: ACX's audiobook requirements, EBU R128,
/// or a podcast/streaming target. A limit that is nil is not checked.
package struct LoudnessProfile: Sendable, Equatable {
    package var name: String
    /// Integrated loudness, LUFS.
    package var integratedLoudness: ClosedRange<Double>?
    /// Highest true peak, dBTP.
    package var maximumTruePeak: Double?
    /// RMS of the whole file, dBFS (ACX measures this, not LUFS).
    package var rms: ClosedRange<Double>?
    /// Highest sample peak, dBFS.
    package var maximumSamplePeak: Double?
    /// Highest noise floor: the RMS of the quietest half second, dBFS.
    package var maximumNoiseFloor: Double?
    /// Room tone (silence) at the head and the tail of each file, milliseconds.
    package var headRoomTone: ClosedRange<Int>?
    package var tailRoomTone: ClosedRange<Int>?

    /// ACX (Audible): RMS −23 to −18 dBFS, peak ≤ −3 dBFS, noise floor ≤ −60 dBFS, 0.5–1 s of room
    /// tone at the head and 1–5 s at the tail of each chapter file.
    package static let acx = LoudnessProfile(
        name: "acx", rms: -23...(-18), maximumSamplePeak: -3, maximumNoiseFloor: -60, headRoomTone: 500...1000,
        tailRoomTone: 1000...5000)
    /// EBU R128: integrated −23 LUFS (±1 LU), true peak ≤ −1 dBTP.
    package static let ebuR128 = LoudnessProfile(name: "ebu-r128", integratedLoudness: -24...(-22), maximumTruePeak: -1)
    /// Podcasts and streaming: integrated −16 LUFS (±1 LU), true peak ≤ −1 dBTP.
    package static let podcast = LoudnessProfile(name: "podcast", integratedLoudness: -17...(-15), maximumTruePeak: -1)

    package static let all = [acx, ebuR128, podcast]

    package static func named(_ name: String) throws(MasteringError) -> LoudnessProfile {
        guard let profile = all.first(where: { $0.name == name.lowercased() }) else { throw .unknownProfile(name) }
        return profile
    }

    package init(
        name: String, integratedLoudness: ClosedRange<Double>? = nil, maximumTruePeak: Double? = nil,
        rms: ClosedRange<Double>? = nil,
        maximumSamplePeak: Double? = nil, maximumNoiseFloor: Double? = nil, headRoomTone: ClosedRange<Int>? = nil,
        tailRoomTone: ClosedRange<Int>? = nil
    ) {
        self.name = name
        self.integratedLoudness = integratedLoudness
        self.maximumTruePeak = maximumTruePeak
        self.rms = rms
        self.maximumSamplePeak = maximumSamplePeak
        self.maximumNoiseFloor = maximumNoiseFloor
        self.headRoomTone = headRoomTone
        self.tailRoomTone = tailRoomTone
    }

    /// What `levels` breaks of this profile, in words ("peak −0.9 dBFS is above −3.0"); empty when it conforms.
    package func violations(of levels: AudioLevels) -> [String] {
        var problems: [String] = []
        func number(_ value: Double) -> String { value.isFinite ? String(format: "%.1f", value) : "-inf" }
        if let range = integratedLoudness, !range.contains(levels.integratedLoudness) {
            problems.append(
                "integrated \(number(levels.integratedLoudness)) LUFS is outside \(number(range.lowerBound))…\(number(range.upperBound))"
            )
        }
        if let maximum = maximumTruePeak, levels.truePeak > maximum {
            problems.append("true peak \(number(levels.truePeak)) dBTP is above \(number(maximum))")
        }
        if let range = rms, !range.contains(levels.rms) {
            problems.append(
                "RMS \(number(levels.rms)) dBFS is outside \(number(range.lowerBound))…\(number(range.upperBound))")
        }
        if let maximum = maximumSamplePeak, levels.samplePeak > maximum {
            problems.append("peak \(number(levels.samplePeak)) dBFS is above \(number(maximum))")
        }
        if let maximum = maximumNoiseFloor, levels.noiseFloor > maximum {
            problems.append("noise floor \(number(levels.noiseFloor)) dBFS is above \(number(maximum))")
        }
        if let range = headRoomTone, !range.contains(levels.headSilenceMs) {
            problems.append(
                "room tone at the head \(levels.headSilenceMs) ms is outside \(range.lowerBound)…\(range.upperBound)")
        }
        if let range = tailRoomTone, !range.contains(levels.tailSilenceMs) {
            problems.append(
                "room tone at the tail \(levels.tailSilenceMs) ms is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return problems
    }
}
