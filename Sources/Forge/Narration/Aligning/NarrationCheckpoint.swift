/// What one window of ``NarrationAligner`` settled: saved as each window is done, so an
/// alignment stopped by Ctrl-C, a kill or a crash resumes at its last window instead of
/// aligning hours of recording again.
///
/// Replaying a run's checkpoints in order gives the aligner exactly the state it had when it
/// wrote the last one.
package struct NarrationCheckpoint: Sendable, Equatable {
    /// Where the next window starts, in 16 kHz samples.
    package var cursor: Int
    /// The next word to align.
    package var nextWord: Int
    /// The 10 ms frames the window heard as speech, from `speechFrame` on.
    package var speechFrame: Int
    package var speech: [Bool]
    /// The placements the window settled, for words `firstWord…` (nil: not placed).
    package var firstWord: Int
    package var placements: [WordPlacement?]

    package init(
        cursor: Int, nextWord: Int, speechFrame: Int, speech: [Bool], firstWord: Int, placements: [WordPlacement?]
    ) {
        self.cursor = cursor
        self.nextWord = nextWord
        self.speechFrame = speechFrame
        self.speech = speech
        self.firstWord = firstWord
        self.placements = placements
    }
}
