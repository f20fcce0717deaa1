/// What a speakable item is, which exports and players use to style it.
public enum ItemKind: String, Sendable, Codable, CaseIterable {
    /// A chapter or section title.
    case heading
    /// Body text: a paragraph, or part of one cut at sentence boundaries.
    case paragraph
}
