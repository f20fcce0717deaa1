import Foundation

/// Something the quick check found wrong with an item's audio.
package enum ScreenFinding: Sendable, Equatable {
    /// The file's bytes are not those the build recorded (changed behind the store's back).
    case changedSinceBuild
    /// (Almost) no sound where the text has words.
    case silent(activeMs: Int)
    /// Samples at full scale.
    case clipped(share: Double)
    /// Noise, not speech: sign changes in about half the samples.
    case noise(zeroCrossingRate: Double)
    /// Far louder or quieter than the voice's other items.
    case levelJump(decibels: Double)
    /// Much shorter than its text takes this voice to say: cut off or missing words.
    case tooShort(LengthEvidence)
    /// Much longer than its text takes this voice to say: other or repeated text.
    case tooLong(LengthEvidence)
    /// Its sound's character (zero-crossing rate) is unlike the voice's other items, beyond `limit`
    /// (the voice's own variation for an item of its length): another voice or language.
    case soundsDifferent(ratio: Double, limit: Double)

    /// An item's length against what its text takes the voice: the evidence of a length finding.
    package struct LengthEvidence: Sendable, Equatable {
        package var durationMs: Int
        package var expectedMs: Int
        /// What the voice's own items allow an item of this text.
        package var minimumMs: Int
        package var maximumMs: Int
        /// What the expectation was made from: "52 phonemes in 3 clauses" (the engine's reading), or "60 characters".
        package var basis: String
    }
    /// Its level envelope rises slowly and stops at once, as speech played backwards does.
    case reversed(onsetSkew: Double)

    /// A stable name for reports and JSON.
    package var name: String {
        switch self {
        case .changedSinceBuild: "changed-since-build"
        case .silent: "silent"
        case .clipped: "clipped"
        case .noise: "noise"
        case .levelJump: "level-jump"
        case .tooShort: "too-short"
        case .tooLong: "too-long"
        case .soundsDifferent: "sounds-different"
        case .reversed: "reversed"
        }
    }

    /// What was found, for people.
    package var description: String {
        switch self {
        case .changedSinceBuild: "the audio file is not what the build wrote (changed since; rebuild to restore it)"
        case .silent(let active): "almost silent (\(active) ms of sound)"
        case .clipped(let share): String(format: "clipped (%.2f%% of samples at full scale)", share * 100)
        case .noise(let rate): String(format: "noise, not speech (zero-crossing rate %.2f)", rate)
        case .levelJump(let decibels): String(format: "%+.1f dB against the voice's other items", decibels)
        case .tooShort(let evidence):
            "\(evidence.durationMs) ms where the text (\(evidence.basis)) takes the voice about \(evidence.expectedMs) ms, at least \(evidence.minimumMs) ms: cut short?"
        case .tooLong(let evidence):
            "\(evidence.durationMs) ms where the text (\(evidence.basis)) takes the voice about \(evidence.expectedMs) ms, at most \(evidence.maximumMs) ms: other text?"
        case .soundsDifferent(let ratio, let limit):
            String(
                format:
                    "sounds unlike the voice's other items (zero-crossing rate ×%.2f, where its items of this length stay within ×%.2f–×%.2f): another voice or language?",
                ratio, 1 - limit, 1 + limit)
        case .reversed(let skew):
            String(format: "sounds reversed (level rises slowly and stops at once; onset skew %+.2f)", skew)
        }
    }
}
