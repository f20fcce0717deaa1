/// A block of a document (a paragraph, list item, heading, a character's lines …) with its markup
/// removed and entities decoded, and for each scalar the source offset it came from.
package struct DocumentBlock: Sendable, Equatable {
    package enum Role: Sendable, Equatable {
        case paragraph
        /// `h1`…`h6`, Markdown's `#`…`######`; a plain-text "Chapter 12" line or a script's `ACT I` is level 1, `SCENE 2` level 3.
        case heading(level: Int)
        /// A script's text outside any character's lines.
        case narration
        /// A character's lines in a script.
        case speech(character: String)
    }

    package var role: Role
    /// The block's text; white space is folded later by the splitter.
    package var text: [Unicode.Scalar]
    /// For each scalar of `text`, its Unicode scalar offset in the source document.
    package var origins: [Int]
    /// The id of the block's element, or of the first element inside it that has one; exports use it to point back.
    package var elementID: String?
    /// Set when the book's table of contents starts a chapter at this block: the entry's title.
    package var chapterTitle: String?
    /// Set when the book's table of contents starts a part here (an entry with chapters nested
    /// under it, or beside such parts): the part's title, which comes before `chapterTitle` when a
    /// part and its first chapter start at the same block.
    package var partTitle: String?
    /// A heading above chapters — "BOOK ONE", "Part II", "Volume the First" — whose title the
    /// chapters under it carry ("Book One — Chapter 1").
    package var isPart = false
    /// The offset of the `<` of the block element's start tag, and the element's name: where an
    /// export adds an id to a block that has none.
    package var element: (offset: Int, name: String)?

    package static func == (lhs: DocumentBlock, rhs: DocumentBlock) -> Bool {
        lhs.role == rhs.role && lhs.text == rhs.text && lhs.origins == rhs.origins && lhs.elementID == rhs.elementID
            && lhs.chapterTitle == rhs.chapterTitle && lhs.partTitle == rhs.partTitle && lhs.isPart == rhs.isPart
            && lhs.element?.offset == rhs.element?.offset && lhs.element?.name == rhs.element?.name
    }

    package init(
        role: Role, text: [Unicode.Scalar], origins: [Int], elementID: String?, chapterTitle: String? = nil,
        element: (offset: Int, name: String)? = nil
    ) {
        self.element = element
        self.role = role
        self.text = text
        self.origins = origins
        self.elementID = elementID
        self.chapterTitle = chapterTitle
    }

    /// The text with runs of white space (and control characters) folded to one space and trimmed.
    package var foldedText: String { String(foldingWhiteSpaceOf: text) }

    /// Whether the block is a heading, at any level.
    package var isHeading: Bool {
        if case .heading = role { return true }
        return false
    }
}
