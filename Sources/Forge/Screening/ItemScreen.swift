import Foundation

/// The quick check's judgement of one item: its ``ItemSignal`` against absolute limits, and
/// against its voice's ``VoiceProfile`` when the book has one — its length against what the engine's
/// reading of its text takes the voice, its sound against the voice's own variation. The limits were
/// set on the shared corpus, difficult prose (invented words, dialect, numbers, abbreviations) and a
/// modernist novel in espeak-ng's voices with faults seeded (docs/verification.md lists the rates):
/// clean items sit well inside them, a seeded fault well outside.
package enum ItemScreen {
    static let silentActiveMs = 200
    static let clippedShare = 0.001
    static let noiseCrossingRate = 0.3
    static let levelJumpDb = 9.0
    /// Without a reading of the text, an item's length is judged from its characters, within these.
    static let shortRatio = 0.6
    static let longRatio = 1.8
    /// With a reading: within this many standard deviations of the voice's own (``VoiceProfile``),
    /// widened for short texts by ``phonemeVariance`` over the item's phonemes (what a short text
    /// takes varies more), and never beyond the ratios above.
    static let deviations = 4.0
    /// The zero-crossing rate is judged within this many of its standard deviations.
    static let crossingDeviations = 4.0
    static let phonemeVariance = 0.36
    static let minimumPhonemes = 20
    /// The zero-crossing rate: within ``deviations`` of the voice's spread, widened for short items
    /// by ``crossingFrameVariance`` over their seconds of sound (a median of fewer frames varies more).
    static let crossingFrameVariance = 0.0144
    static let crossingMinimum = 0.2
    /// Reversed: onset skew above the voice's by this many of its standard deviations for an item
    /// of this length (``VoiceProfile/skewVariancePerSecond``), and above ``reversedSkewFloor``.
    static let reversedDeviations = 4.5
    static let reversedSkewFloor = 0.45
    static let reversedActiveMs = 3_000

    /// What is wrong with an item of `characters` characters of text, which the engine reads as
    /// `reading`, whose audio measured `signal`.
    package static func findings(
        characters: Int, reading: SpokenReading? = nil, signal: ItemSignal, profile: VoiceProfile?
    ) -> [ScreenFinding] {
        var found: [ScreenFinding] = []
        if characters >= 5, signal.activeMs < silentActiveMs {
            return [.silent(activeMs: signal.activeMs)]
        }
        let clipped = Double(signal.clippedSamples) / Double(max(signal.sampleCount, 1))
        if signal.clippedSamples >= 10, clipped > clippedShare { found.append(.clipped(share: clipped)) }
        let noise = signal.zeroCrossingRate >= noiseCrossingRate
        if noise { found.append(.noise(zeroCrossingRate: signal.zeroCrossingRate)) }
        guard let profile else { return found }
        if signal.activeMs >= 500, abs(signal.levelDb - profile.levelDb) > levelJumpDb {
            found.append(.levelJump(decibels: signal.levelDb - profile.levelDb))
        }
        if let length = lengthFinding(
            characters: characters, reading: reading, durationMs: signal.durationMs, profile: profile)
        {
            found.append(length)
        }
        if !noise, VoiceProfile.isTypical(characters: characters, signal: signal), profile.zeroCrossingRate > 0 {
            let ratio = signal.zeroCrossingRate / profile.zeroCrossingRate
            let spread =
                (profile.crossingSpread * profile.crossingSpread + crossingFrameVariance
                / (Double(signal.activeMs) / 1000)).squareRoot()
            let limit = max(crossingMinimum, crossingDeviations * spread)
            if abs(ratio - 1) > limit { found.append(.soundsDifferent(ratio: ratio, limit: limit)) }
        }
        let skewSpread = (profile.skewVariancePerSecond / (Double(signal.activeMs) / 1000)).squareRoot()
        if !noise, signal.activeMs >= reversedActiveMs,
            signal.onsetSkew > max(reversedSkewFloor, profile.onsetSkew + reversedDeviations * skewSpread)
        {
            found.append(.reversed(onsetSkew: signal.onsetSkew))
        }
        return found
    }

    /// Too short or too long for what the text says: against the engine's reading of it where
    /// there is one (of ``minimumPhonemes`` or more), else against its characters.
    static func lengthFinding(characters: Int, reading: SpokenReading?, durationMs: Int, profile: VoiceProfile)
        -> ScreenFinding?
    {
        let basis: String
        let low: Double
        let high: Double
        let expected: Double
        if let reading, reading.phonemes >= minimumPhonemes, profile.msPerPhoneme != nil,
            let model = profile.expectedMs(characters: characters, reading: reading)
        {
            let spread = (profile.lengthSpread * profile.lengthSpread + phonemeVariance / Double(reading.phonemes))
                .squareRoot()
            let bound = deviations * spread
            (expected, low, high) = (model, max(shortRatio, exp(-bound)), min(longRatio, exp(bound)))
            basis = "\(reading.phonemes) phonemes in \(reading.clauses) clause\(reading.clauses == 1 ? "" : "s")"
        } else if characters >= VoiceProfile.minimumCharacters, reading == nil || profile.msPerPhoneme == nil {
            (expected, low, high) = (Double(characters) * profile.msPerCharacter, shortRatio, longRatio)
            basis = "\(characters) characters"
        } else {
            return nil
        }
        let evidence = ScreenFinding.LengthEvidence(
            durationMs: durationMs, expectedMs: Int(expected), minimumMs: Int(expected * low),
            maximumMs: Int(expected * high), basis: basis)
        if Double(durationMs) < expected * low { return .tooShort(evidence) }
        if Double(durationMs) > expected * high { return .tooLong(evidence) }
        return nil
    }
}
