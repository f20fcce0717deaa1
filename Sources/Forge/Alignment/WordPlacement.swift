/// Where the recognizer heard one word, in milliseconds, with its posterior probability.
public struct WordPlacement: Sendable, Equatable, Codable {
    public var startMs: Int
    public var endMs: Int
    public var confidence: Double?
    /// How much worse the word's forced path scored than a phone loop over the same frames, per
    /// frame (``PhoneLoopReference``); nil where no phone loop was decoded.
    public var fit: Double?

    public init(startMs: Int, endMs: Int, confidence: Double?, fit: Double? = nil) {
        self.startMs = startMs
        self.endMs = endMs
        self.confidence = confidence
        self.fit = fit
    }
}
