/// The unit of synthesis: a heading, (part of) a paragraph, a message or a character's line, with its words.
public struct SpeakableItem: Sendable, Equatable {
    /// Stable id derived from the item's kind and text, so editing one paragraph changes no other id.
    public var id: String
    public var kind: ItemKind
    /// Ordinal of the chapter the item belongs to.
    public var chapter: Int
    /// 1-based position in reading order across the whole book.
    public var ordinal: Int
    public var text: String
    public var sourcePath: String
    /// Unicode scalar offsets of the item in its source file, end exclusive.
    public var sourceStart: Int
    public var sourceEnd: Int
    public var words: [WordToken]
    /// The id of the HTML/XHTML element the item came from, when it has one, so exports can point back.
    public var elementID: String?
    /// Who speaks a dialogue item, as the source wrote the name; the cast maps it to a voice.
    public var character: String?
    /// The recipe's own id of an inline item (`items[].id`), used to name its files in audio packs.
    public var name: String?

    public init(
        id: String, kind: ItemKind, chapter: Int, ordinal: Int, text: String,
        sourcePath: String, sourceStart: Int, sourceEnd: Int, words: [WordToken], elementID: String? = nil,
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
        self.words = words
    }
}
