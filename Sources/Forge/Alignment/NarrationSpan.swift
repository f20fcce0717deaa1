/// A stretch of a narration and its text, as ``NarrationAligner`` found them: where they agree,
/// text the recording does not hold, and speech the text does not hold.
package struct NarrationSpan: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        /// The words were heard here.
        case matched
        /// Words the recording does not say (a skipped passage, another edition, the wrong text,
        /// or text past the end of the recording); `startMs…endMs` is where they would be.
        case textNotInAudio = "text-not-in-audio"
        /// Speech the text does not hold (an added passage, a retake, the wrong recording, or
        /// speech after the text's last word); `words` is empty.
        case audioWithoutText = "audio-without-text"
    }

    package var kind: Kind
    package var startMs: Int
    package var endMs: Int
    /// The words (indices into the aligned text) the span covers; empty for audio without text.
    package var words: Range<Int>

    package init(kind: Kind, startMs: Int, endMs: Int, words: Range<Int>) {
        self.kind = kind
        self.startMs = startMs
        self.endMs = endMs
        self.words = words
    }
}
