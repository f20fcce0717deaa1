/// Where the recognizer heard one word, in milliseconds, with its posterior probability.
package struct WordPlacement: Sendable, Equatable, Codable {
    package var startMs: Int
    package var endMs: Int
    package var confidence: Double?
    /// How much worse the word's forced path scored than a phone loop over the same frames, per
    /// frame (``PhoneLoopReference``); nil where no phone loop was decoded.
    package var fit: Double?

    package init(startMs: Int, endMs: Int, confidence: Double?, fit: Double? = nil) {
        self.startMs = startMs
        self.endMs = endMs
        self.confidence = confidence
        self.fit = fit
    }

    /// The same placement `ms` milliseconds later (earlier when negative): from a stretch's own
    /// time to the recording's, or back.
    func shifted(by ms: Int) -> WordPlacement {
        WordPlacement(startMs: startMs + ms, endMs: endMs + ms, confidence: confidence, fit: fit)
    }
}
