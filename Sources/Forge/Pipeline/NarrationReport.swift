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
    public var exportedFiles: [String]
    public var elapsedSeconds: Double
    /// What the user should know about the input, e.g. a recording that could not be decoded to its end.
    public var warnings: [String] = []
}
