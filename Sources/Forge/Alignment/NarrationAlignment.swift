/// What ``NarrationAligner`` made of a recording and its text: a timing for every word, whether
/// each word was heard, and the recording cut into matched and unmatched spans.
package struct NarrationAlignment: Sendable, Equatable {
    /// A timing for every word (words not heard get the place the text would give them) and
    /// each word's confidence.
    package var alignment: ForcedAlignment
    /// Whether each word was heard where its timing puts it.
    package var heard: [Bool]
    /// Matched stretches, text not in the audio and audio without text, in the recording's order.
    package var spans: [NarrationSpan]
    /// Milliseconds of the recording the recognizer heard as speech.
    package var speechMs: Int

    package init(
        alignment: ForcedAlignment, heard: [Bool], spans: [NarrationSpan], speechMs: Int, unmatchedSpeechMs: Int
    ) {
        self.alignment = alignment
        self.heard = heard
        self.spans = spans
        self.speechMs = speechMs
        self.unmatchedSpeechMs = unmatchedSpeechMs
    }

    /// Words of the text that the recording does not hold.
    package var unmatchedWords: Int { heard.count - heard.filter { $0 }.count }
    /// Speech in the recording that the text does not hold (inside audio-without-text spans), in milliseconds.
    package var unmatchedSpeechMs: Int

    /// The larger of the two shares that disagree: words of the text not heard, and speech not
    /// in the text. 0 for a recording of exactly its text; near 1 for the wrong text.
    package var unmatchedFraction: Double {
        let words = heard.isEmpty ? 0 : Double(unmatchedWords) / Double(heard.count)
        let speech = speechMs > 0 ? Double(unmatchedSpeechMs) / Double(speechMs) : 0
        return max(words, speech)
    }
}
