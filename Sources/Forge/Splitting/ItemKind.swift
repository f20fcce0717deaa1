/// What a speakable item is, which exports and players use to style it and casts use to voice it.
package enum ItemKind: String, Sendable, Codable, CaseIterable {
    /// A chapter or section title.
    case heading
    /// Body text of a book or article: a paragraph, or part of one cut at sentence boundaries.
    case paragraph
    /// A short standalone text, such as an app's notification or prompt.
    case message
    /// An article's title, spoken as its own item.
    case title
    /// An article's author line, spoken as its own item.
    case author
    /// Narration between the lines of a script, or an inline narration item.
    case narration
    /// A line a character speaks (in the character's voice from the cast).
    case dialogue
    /// The narrator announcing the character who speaks next.
    case announcement

    /// The one-letter prefix of an item id of this kind.
    var idPrefix: String {
        switch self {
        case .heading: return "h"
        case .paragraph: return "p"
        case .message: return "m"
        case .title: return "t"
        case .author: return "a"
        case .narration: return "n"
        case .dialogue: return "d"
        case .announcement: return "c"
        }
    }
}
