/// An item written in the recipe itself (`items`): an app's voice line, a phrase list entry, a
/// message or an article, named by the recipe's own id.
package struct InlineItem: Sendable, Equatable {
    /// The keys of an entry of the recipe's `items` (read by `InlineItem.read(recipe:…)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case id, kind, text, character, title, author, body }

    /// What the entry holds; an article becomes a title item, an author item and body paragraphs.
    package enum Kind: String, Sendable, CaseIterable {
        case dialogue
        case message
        case narration
        case heading
        case article
    }

    /// The recipe's id, unique in the recipe; packs name the item's files after it.
    package var id: String
    package var kind: Kind
    /// The words to speak (dialogue, message, narration, heading).
    package var text: String
    /// Who speaks a dialogue line; nil for the narrator.
    package var character: String?
    /// An article's title, author and body (paragraphs separated by blank lines).
    package var title: String?
    package var author: String?
    package var body: String?

    package init(
        id: String, kind: Kind = .dialogue, text: String = "", character: String? = nil, title: String? = nil,
        author: String? = nil, body: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.text = text
        self.character = character
        self.title = title
        self.author = author
        self.body = body
    }
}
