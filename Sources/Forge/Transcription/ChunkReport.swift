/// One 2-minute chunk of a chapter's timeline, transcribed and scored.
package struct ChunkReport: Sendable, Equatable {
    /// Verification transcribes audio in chunks of this length, at floor(t / 120 s) × 120 s of a chapter.
    package static let chunkMs = 120_000
    /// An item is flagged when at least this many of its words in a chunk went unheard.
    static let flagWords = 3

    /// An item in the chunk with words the recognizer did not hear, or with speech its text does
    /// not have.
    package struct FlaggedItem: Sendable, Equatable {
        /// The names of the checks that flagged it, the evidence being its words: `unheard-words`
        /// (``missingWords``), `extra-speech` (``extraWords``).
        package var checks: [String] {
            (missingWords.isEmpty ? [] : ["unheard-words"]) + (extraWords.isEmpty ? [] : ["extra-speech"])
        }

        package var itemID: String
        package var missingWords: [String]
        /// Words heard in the item's audio after its text's last word or before its first.
        package var extraWords: [String] = []
    }

    package var chapter: Int
    package var startMs: Int
    package var endMs: Int
    package var wordErrorRate: Double
    package var referenceWords: Int
    package var errors: Int
    /// Items with a run of unheard words (likely wrong, truncated or silent audio).
    package var flaggedItems: [FlaggedItem]
    /// False when the stored transcription was reused (the chunk's audio did not change).
    package var transcribed: Bool

    /// The chunk's 0-based position in its chapter.
    package var index: Int { startMs / Self.chunkMs }

    /// Flagged: over the word error rate limit, or holding an item with a run of unheard words.
    package func isFlagged(_ maximum: Double?) -> Bool { exceeds(maximum) || !flaggedItems.isEmpty }

    /// Over the limit, with at least ``flagWords`` errors: the last chunk of a
    /// chapter can be a second long and hold nothing but the tail of a word cut at its start,
    /// heard as one short word against no reference at all (a rate of 100% that means nothing).
    package func exceeds(_ maximum: Double?) -> Bool {
        guard let maximum else { return false }
        return wordErrorRate > maximum && errors >= Self.flagWords
    }
}
