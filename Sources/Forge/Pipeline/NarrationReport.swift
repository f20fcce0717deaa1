/// What `forge align --audio … --text …` did.
public struct NarrationReport: Sendable {
    /// A word the aligner could not hear where the text says it is (its timing is a best guess).
    public struct UnheardWord: Sendable {
        public var itemID: String
        public var word: String
        /// Where it should be, in the recording.
        public var startMs: Int
    }

    public var outputDirectory: String
    public var items: Int
    public var words: Int
    public var durationMs: Int
    public var unheard: [UnheardWord]
    /// True when the alignment came from the store (the same recording and text were aligned before).
    public var reusedAlignment: Bool
    /// Where in the recording this run took up an interrupted run's alignment, in milliseconds;
    /// nil when it aligned from the start (or reused the whole alignment).
    public var resumedFromMs: Int? = nil
    public var exportedFiles: [String]
    public var elapsedSeconds: Double
    /// What the user should know about the input, e.g. a recording that could not be decoded to its end.
    public var warnings: [String] = []
    /// Where recording and text agree and where not, in the recording's order.
    public var spans: [Manifest.NarrationSpanRow] = []
    /// Words of the text not heard in the recording.
    public var unmatchedWords = 0
    /// Speech in the recording, and the part of it the text does not hold, in milliseconds.
    public var speechMs = 0
    public var unmatchedSpeechMs = 0
    /// The larger share of the two that disagree, and the largest that passes.
    public var unmatchedFraction = 0.0
    public var maxUnmatched = NarrationImport.defaultMaxUnmatched
    /// Items of which the recording holds no word (left without audio, failed).
    public var itemsNotInRecording = 0
    /// Exports were asked for but not written, because the run did not pass.
    public var exportsSkipped = false

    /// Whether the recording holds its text: every item heard and the disagreement within `maxUnmatched`.
    public var passed: Bool { itemsNotInRecording == 0 && unmatchedFraction <= maxUnmatched }
}
