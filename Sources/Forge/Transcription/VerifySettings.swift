/// The recipe's `verify` block: transcribe the audio back and score it against the text.
package struct VerifySettings: Sendable, Equatable {
    /// The keys of the recipe's `verify` object (read by `VerifySettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case required, maxWordErrorRate, jobs, mode, accept }

    package static let allowedRates = 0.0...1.0
    /// Fail the build when verification cannot run (recognizer or model missing, unsupported language).
    package var required: Bool
    /// A chunk whose word error rate exceeds this fails `forge build` (exit 1); nil: report only.
    package var maxWordErrorRate: Double?
    /// Decoders running at once; nil: one per core.
    package var jobs: Int?
    /// Transcribe every chunk, or screen every item and transcribe a sample.
    package var mode: VerifyMode
    /// Items a person has listened to and accepted though verification flags them, each with the
    /// SHA-256 of the audio accepted: a flag of that item on that audio does not fail the
    /// verification; once the item's audio changes it is checked again.
    package var accepted: [String: String]

    package init(
        required: Bool = false, maxWordErrorRate: Double? = nil, jobs: Int? = nil, mode: VerifyMode = .full,
        accepted: [String: String] = [:]
    ) {
        self.required = required
        self.maxWordErrorRate = maxWordErrorRate
        self.jobs = jobs
        self.mode = mode
        self.accepted = accepted
    }

    /// Why `digest` cannot be an accepted item's audio digest, or nil when it can.
    package static func digestProblem(_ digest: String) -> String? {
        digest.count == 64 && digest.allSatisfy(\.isHexDigit)
            ? nil : "the audio's SHA-256: 64 hexadecimal digits, as `forge verify` prints it for a flagged item"
    }
}
