/// What `forge align narration --audio … --text …` did.
package struct NarrationReport: Sendable {
    /// A word the aligner could not hear where the text says it is (its timing is a best guess).
    package struct UnheardWord: Sendable {
        package var itemID: String
        package var word: String
        /// Where it should be, in the recording.
        package var startMs: Int
    }

    package var outputDirectory: String
    package var items: Int
    package var words: Int
    package var durationMs: Int
    package var unheard: [UnheardWord]
    /// True when the alignment came from the store (the same recording and text were aligned before).
    package var reusedAlignment: Bool
    /// Where in the recording this run took up an interrupted run's alignment, in milliseconds;
    /// nil when it aligned from the start (or reused the whole alignment).
    package var resumedFromMs: Int? = nil
    /// How much of the recording the acoustic model decoded, in milliseconds, when this run
    /// aligned it by warping Forge's own reading onto it.
    package var examinedMs: Int? = nil
    package var exportedFiles: [String]
    package var elapsedSeconds: Double
    /// What the user should know about the input, e.g. a recording that could not be decoded to its end.
    package var warnings: [Diagnostic] = []
    /// Where recording and text agree and where not, in the recording's order.
    package var spans: [Manifest.NarrationSpanRow] = []
    /// Words of the text not heard in the recording.
    package var unmatchedWords = 0
    /// Speech in the recording, and the part of it the text does not hold, in milliseconds.
    package var speechMs = 0
    package var unmatchedSpeechMs = 0
    /// The larger share of the two that disagree, and the largest that passes.
    package var unmatchedFraction = 0.0
    package var maxUnmatched = NarrationImport.defaultMaxUnmatched
    /// Items of which the recording holds no word (left without audio, failed).
    package var itemsNotInRecording = 0
    /// Exports were asked for but not written, because the run did not pass.
    package var exportsSkipped = false

    /// Whether the recording holds its text: every item heard and the disagreement within `maxUnmatched`.
    /// Items not in the recording are done without audio (a sync), not a failure.
    package var keepsUnnarrated = false
    package var passed: Bool { (itemsNotInRecording == 0 || keepsUnnarrated) && unmatchedFraction <= maxUnmatched }
}
