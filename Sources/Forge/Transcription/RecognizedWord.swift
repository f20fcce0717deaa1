/// A word the recognizer heard, in milliseconds (relative to what was decoded, until placed on a timeline).
package struct RecognizedWord: Sendable, Equatable {
    package var text: String
    package var startMs: Int
    package var endMs: Int
}
