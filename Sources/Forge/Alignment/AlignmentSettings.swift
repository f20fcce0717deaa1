/// How the align stage times words.
package struct AlignmentSettings: Sendable, Equatable {
    /// The keys of the recipe's `alignment` object (read by `AlignmentSettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case method }

    package enum Method: String, Sendable, CaseIterable {
        /// The synthesizer's word events where it gives them, forced alignment elsewhere.
        case auto
        /// Forced alignment of every item's audio with the speech recognizer, even where the
        /// synthesizer gave events (to check one against the other, or for engines whose events
        /// are poor).
        case forced
    }

    package var method: Method

    package init(method: Method = .auto) {
        self.method = method
    }
}
