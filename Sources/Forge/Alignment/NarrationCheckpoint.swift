/// What one window of ``NarrationAligner`` settled: saved as each window is done, so an
/// alignment stopped by Ctrl-C, a kill or a crash resumes at its last window instead of
/// aligning hours of recording again.
///
/// Replaying a run's checkpoints in order gives the aligner exactly the state it had when it
/// wrote the last one.
public struct NarrationCheckpoint: Sendable, Equatable {
    /// Where the next window starts, in 16 kHz samples.
    public var cursor: Int
    /// The next word to align.
    public var nextWord: Int
    /// The 10 ms frames the window heard as speech, from `speechFrame` on.
    public var speechFrame: Int
    public var speech: [Bool]
    /// The placements the window settled, for words `firstWord…` (nil: not placed).
    public var firstWord: Int
    public var placements: [WordPlacement?]

    public init(cursor: Int, nextWord: Int, speechFrame: Int, speech: [Bool], firstWord: Int, placements: [WordPlacement?]) {
        self.cursor = cursor
        self.nextWord = nextWord
        self.speechFrame = speechFrame
        self.speech = speech
        self.firstWord = firstWord
        self.placements = placements
    }
}
