/// A link from one place in a book to another (`<a href="#chapter-1">Chapter I</a>`): what a
/// contents list is made of.
struct BookLink: Equatable {
    /// The fragment the link points at (`chapter-1`); empty when it names none.
    var target: String
    /// The file part of the link (`chapter-1.xhtml`), empty for a link within the document.
    var file: String
    /// The link's text, as read.
    var text: [Unicode.Scalar] = []
    /// The text after the link up to the next link or line break: a contents entry's title when the
    /// link holds only its number (`<a href="#ch1">I.</a> The Period<br/>`).
    var tail: [Unicode.Scalar] = []
    /// Whether the link is only a label ("CHAPTER V") whose title is `tail`, set in a row of its own.
    var labelTakesTail = false

    init(target: String, file: String) {
        self.target = target
        self.file = file
    }

    /// The link's text with white space folded, and the text after it when the link holds only a
    /// number or a mark.
    var title: String {
        let own = String(foldingWhiteSpaceOf: text)
        let after = String(foldingWhiteSpaceOf: tail)
        let isNumberOnly = own.count <= 8 && !own.contains { $0.isLetter && !"IVXLCDMivxlcdm".contains($0) }
        guard isNumberOnly || labelTakesTail, !after.isEmpty else { return own }
        let mark = own.allSatisfy { !$0.isLetter && !$0.isNumber }
        return mark ? after : own + " " + after
    }
}
