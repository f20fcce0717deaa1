/// How one voice's items usually measure in this book: the medians the quick check compares each
/// item with, so a check holds for any voice or engine without constants per voice.
package struct VoiceProfile: Sendable, Equatable {
    /// Items whose sound is at least this long (and whose text at least ``minimumCharacters``)
    /// make up the profile and are judged against it: short ones vary too much.
    static let minimumActiveMs = 1_500
    static let minimumCharacters = 30
    /// Fewer such items than this: no profile, and only the absolute checks run.
    static let minimumItems = 5

    package var items: Int
    /// Milliseconds of audio per character of text.
    package var msPerCharacter: Double
    package var levelDb: Double
    package var zeroCrossingRate: Double
    package var onsetSkew: Double

    /// The profile of `measured` (an item's character count and signal), or nil with too few items.
    package init?(_ measured: [(characters: Int, signal: ItemSignal)]) {
        let typical = measured.filter { Self.isTypical(characters: $0.characters, signal: $0.signal) }
        guard typical.count >= Self.minimumItems,
              let pace = ItemSignal.median(typical.map { Double($0.signal.durationMs) / Double($0.characters) }),
              let level = ItemSignal.median(typical.map(\.signal.levelDb)),
              let crossings = ItemSignal.median(typical.map(\.signal.zeroCrossingRate)),
              let skew = ItemSignal.median(typical.map(\.signal.onsetSkew))
        else { return nil }
        items = typical.count
        msPerCharacter = pace
        levelDb = level
        zeroCrossingRate = crossings
        onsetSkew = skew
    }

    static func isTypical(characters: Int, signal: ItemSignal) -> Bool {
        characters >= minimumCharacters && signal.activeMs >= minimumActiveMs
    }
}
