/// The unit of synthesis: a heading, (part of) a paragraph, a message or a character's line, with its words.
package struct SpeakableItem: Sendable, Equatable {
    /// Stable id derived from the item's kind and text, so editing one paragraph changes no other id.
    package var id: String
    package var kind: ItemKind
    /// Ordinal of the chapter the item belongs to.
    package var chapter: Int
    /// 1-based position in reading order across the whole book.
    package var ordinal: Int
    package var text: String
    package var sourcePath: String
    /// Unicode scalar offsets of the item in its source file, end exclusive.
    package var sourceStart: Int
    package var sourceEnd: Int
    /// How many words ``words`` holds, counted when the item is cut.
    package var wordCount: Int
    /// The id of the HTML/XHTML element the item came from, when it has one, so exports can point back.
    package var elementID: String?
    /// Who speaks a dialogue item, as the source wrote the name; the cast maps it to a voice.
    package var character: String?
    /// The recipe's own id of an inline item (`items[].id`), used to name its files in audio packs.
    package var name: String?

    package init(
        id: String, kind: ItemKind, chapter: Int, ordinal: Int, text: String,
        sourcePath: String, sourceStart: Int, sourceEnd: Int, wordCount: Int? = nil, elementID: String? = nil,
        character: String? = nil, name: String? = nil
    ) {
        self.elementID = elementID
        self.character = character
        self.name = name
        self.id = id
        self.kind = kind
        self.chapter = chapter
        self.ordinal = ordinal
        self.text = text
        self.sourcePath = sourcePath
        self.sourceStart = sourceStart
        self.sourceEnd = sourceEnd
        self.wordCount = wordCount ?? Tokenizer.wordCount(in: Array(text.unicodeScalars)[...])
    }

    /// The item's words, cut from its text when asked: a rebuild splits the whole book but stores
    /// the words of new items only, so most items' words are never needed.
    package var words: [WordToken] { Tokenizer.words(in: text) }
}
