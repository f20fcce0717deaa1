import Foundation

/// Notes an edition adds about itself, not the book: "A Note on the Text", a transcriber's note, a
/// colophon. Under a heading (or a line alone) of one of these titles, the note runs to the next
/// heading; it is not spoken (the recipe's `split.keepFrontMatter` keeps it), even where the
/// edition's contents list it.
enum EditorialNotes {
    /// Titles of an edition's notes about itself, lowercased, without closing punctuation.
    static let titles: Set<String> = [
        "a note on the text", "note on the text", "notes on the text", "a note on the texts", "textual note",
        "textual notes", "a textual note", "transcriber's note", "transcriber's notes", "transcribers note",
        "transcribers notes", "original transcriber's notes", "original transcriber's note", "transcriber's endnote",
        "transcriber's endnotes", "colophon", "uncopyright",
        "about this ebook", "about this e-book", "a note on this edition", "note on this edition",
    ]

    /// Whether `text` (a heading or a line alone) is the title of an edition's note.
    static func isTitle(_ text: String) -> Bool {
        guard text.count <= 40 else { return false }
        let folded = String(foldingWhiteSpaceOf: text.unicodeScalars).lowercased().replacingOccurrences(
            of: "’", with: "'")
        return titles.contains(folded.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)))
    }

    /// The blocks of every edition's note: its title block and what follows up to the next heading
    /// or chapter start. A title block that is a paragraph counts only after the book's last
    /// heading (a note at the end of a plain text, where it has no heading's shape).
    static func blocks(in blocks: [DocumentBlock]) -> Set<Int> {
        func startsSection(_ block: DocumentBlock) -> Bool {
            block.chapterTitle != nil || block.partTitle != nil || block.isHeading
        }
        let lastHeading = blocks.lastIndex(where: startsSection) ?? -1
        var notes = Set<Int>()
        var index = 0
        while index < blocks.count {
            let block = blocks[index]
            // Only a short block can be a note's title: most are prose, never folded here.
            let titled =
                block.chapterTitle.map(isTitle) ?? (block.text.count <= 60 && isTitle(block.foldedText))
            guard titled, startsSection(block) || index > lastHeading else {
                index += 1
                continue
            }
            notes.insert(index)
            index += 1
            while index < blocks.count, !startsSection(blocks[index]) {
                notes.insert(index)
                index += 1
            }
        }
        return notes
    }
}
