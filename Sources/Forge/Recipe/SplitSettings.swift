/// How source text is cut into speakable items.
public struct SplitSettings: Sendable, Equatable {
    /// The unit one item holds.
    public enum Unit: String, Sendable, CaseIterable {
        /// A paragraph per item, cut at sentence boundaries when longer than `maxCharacters`.
        case paragraph
        /// A sentence per item.
        case sentence
    }

    public static let allowedMaxCharacters = 40...100_000

    public var unit: Unit
    /// The longest item, in characters (Unicode scalars).
    public var maxCharacters: Int

    public init(unit: Unit = .paragraph, maxCharacters: Int = 1000) {
        self.unit = unit
        self.maxCharacters = maxCharacters
    }
}
