/// What the quick check found over a book's items.
package struct ScreenReport: Sendable, Equatable {
    /// An item the check flagged.
    package struct FlaggedItem: Sendable, Equatable {
        package var itemID: String
        package var chapter: Int
        /// Where the item lies in its chapter's timeline.
        package var startMs: Int
        package var endMs: Int
        package var findings: [ScreenFinding]
    }

    /// Items measured.
    package var items: Int
    package var flagged: [FlaggedItem]
    /// Voices with enough items for a profile (the relative checks ran for their items).
    package var profiledVoices: Int
    package var elapsedSeconds: Double

    package init(items: Int, flagged: [FlaggedItem], profiledVoices: Int, elapsedSeconds: Double) {
        self.items = items
        self.flagged = flagged
        self.profiledVoices = profiledVoices
        self.elapsedSeconds = elapsedSeconds
    }
}
