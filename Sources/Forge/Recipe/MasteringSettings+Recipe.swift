extension MasteringSettings {
    /// Reads the recipe's `mastering`: a profile name ("acx", "ebu-r128", "podcast") or an object of
    /// targets, starting from its `profile` when given.
    static func read(recipe value: JSONValue, file: String, path: String) throws(RecipeError) -> MasteringSettings {
        let names = profiles.map { "\"\($0.profile)\"" }.joined(separator: ", ")
        if case .string(let name) = value {
            guard let profile = profile(named: name) else {
                throw .invalidValue(
                    file: file, path: path, found: value.summary,
                    allowed: "a profile: \(names), or an object of targets")
            }
            return profile
        }
        let reader = try RecipeObjectReader<RecipeKey>(value, file: file, path: path)
        var settings = MasteringSettings(integratedLoudness: -18, truePeakCeiling: -1.5)
        if let name = try reader.string(.profile) {
            guard let profile = profile(named: name) else {
                throw .invalidValue(file: file, path: reader.fieldPath(.profile), found: "\"\(name)\"", allowed: names)
            }
            settings = profile
        }
        settings.integratedLoudness =
            try reader.number(
                .integratedLoudness, in: allowedLoudness, default: settings.integratedLoudness, unit: "LUFS")
            ?? settings.integratedLoudness
        settings.truePeakCeiling =
            try reader.number(.truePeak, in: allowedPeaks, default: settings.truePeakCeiling, unit: "dBTP")
            ?? settings.truePeakCeiling
        settings.samplePeakCeiling = try reader.number(
            .samplePeak, in: allowedPeaks, default: settings.samplePeakCeiling, unit: "dBFS")
        settings.maximumRMS = try reader.number(.maximumRMS, in: -40...0, default: settings.maximumRMS, unit: "dBFS")
        if reader.value(.headMs) != nil {
            settings.headMs = try reader.integer(.headMs, in: allowedRoomTone, default: 0, unit: "ms")
        }
        if reader.value(.tailMs) != nil {
            settings.tailMs = try reader.integer(.tailMs, in: allowedRoomTone, default: 0, unit: "ms")
        }
        if reader.value(.profile) == nil || reader.value(.integratedLoudness) != nil || reader.value(.truePeak) != nil {
            settings.profile = "custom"
        }
        return settings
    }
}
