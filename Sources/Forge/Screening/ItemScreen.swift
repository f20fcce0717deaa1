/// The quick check's judgement of one item: its ``ItemSignal`` against absolute limits, and
/// against its voice's ``VoiceProfile`` when the book has one. The limits were set on the shared
/// corpus's items in espeak-ng's voices with faults seeded (docs/verification.md lists the rates):
/// clean items sit well inside them, a seeded fault well outside.
package enum ItemScreen {
    static let silentActiveMs = 200
    static let clippedShare = 0.001
    static let noiseCrossingRate = 0.3
    static let levelJumpDb = 9.0
    static let shortRatio = 0.6
    static let longRatio = 1.8
    static let crossingRatio = 0.3
    /// Reversed: onset skew above the voice's by this much, and above ``reversedSkewFloor``.
    static let reversedSkewMargin = 0.9
    static let reversedSkewFloor = 0.45
    static let reversedActiveMs = 3_000

    /// What is wrong with an item of `characters` characters of text whose audio measured `signal`.
    package static func findings(characters: Int, signal: ItemSignal, profile: VoiceProfile?) -> [ScreenFinding] {
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
        if characters >= VoiceProfile.minimumCharacters {
            let expected = Int(Double(characters) * profile.msPerCharacter)
            if Double(signal.durationMs) < shortRatio * Double(expected) {
                found.append(.tooShort(durationMs: signal.durationMs, expectedMs: expected))
            } else if Double(signal.durationMs) > longRatio * Double(expected) {
                found.append(.tooLong(durationMs: signal.durationMs, expectedMs: expected))
            }
        }
        if !noise, VoiceProfile.isTypical(characters: characters, signal: signal), profile.zeroCrossingRate > 0 {
            let ratio = signal.zeroCrossingRate / profile.zeroCrossingRate
            if abs(ratio - 1) > crossingRatio { found.append(.soundsDifferent(ratio: ratio)) }
        }
        if !noise, signal.activeMs >= reversedActiveMs, signal.onsetSkew > max(reversedSkewFloor, profile.onsetSkew + reversedSkewMargin) {
            found.append(.reversed(onsetSkew: signal.onsetSkew))
        }
        return found
    }
}
