/// A word the recognizer heard, in milliseconds (relative to what was decoded, until placed on a timeline).
public struct RecognizedWord: Sendable, Equatable {
    public var text: String
    public var startMs: Int
    public var endMs: Int
}
