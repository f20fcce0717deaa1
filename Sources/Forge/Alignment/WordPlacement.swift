/// Where the recognizer heard one word, in milliseconds, with its posterior probability.
public struct WordPlacement: Sendable, Equatable {
    public var startMs: Int
    public var endMs: Int
    public var confidence: Double?

    public init(startMs: Int, endMs: Int, confidence: Double?) {
        self.startMs = startMs
        self.endMs = endMs
        self.confidence = confidence
    }
}
