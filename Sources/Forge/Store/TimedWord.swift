/// A word of an item with its timing (nil until aligned) and the aligner's confidence.
public struct TimedWord: Sendable, Equatable {
    public var token: WordToken
    public var timing: WordTiming?
    public var confidence: Double?

    public init(token: WordToken, timing: WordTiming?, confidence: Double?) {
        self.token = token
        self.timing = timing
        self.confidence = confidence
    }
}
