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
}
