/// A word of an item with its timing (nil until aligned) and the aligner's confidence.
package struct TimedWord: Sendable, Equatable {
    package var token: WordToken
    package var timing: WordTiming?
    package var confidence: Double?

    package init(token: WordToken, timing: WordTiming?, confidence: Double?) {
        self.token = token
        self.timing = timing
        self.confidence = confidence
    }
}
