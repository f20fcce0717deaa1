/// What comes before a book's first chapter and is not the book as a listener hears it: the title
/// page ("DRACULA" / "by" / "Bram Stoker"), the publisher's imprint, copyright lines, a dedication of
/// a line, Project Gutenberg's production notes and transcriber's notes. Prefaces, introductions
/// and longer dedications are the book and stay. Readers call ``kind(of:)`` on each block before the
/// first chapter; the recipe's `split.keepFrontMatter` keeps them all.
enum FrontMatter {
    /// EPUB 3 structural semantics (`epub:type`) of matter that is not spoken, and what each is called
    /// in `forge plan`: title pages, the publisher's imprint, colophon and copyright page, the
    /// contents and the lists of illustrations and tables.
    static let unspokenTypes: [String: String] = [
        "titlepage": "title page", "halftitlepage": "title page", "imprint": "imprint", "colophon": "colophon",
        "copyright-page": "copyright", "toc": "contents", "landmarks": "contents", "loi": "list of illustrations",
        "lot": "list of tables", "se:loi": "list of illustrations", "seriespage": "series page",
        "endnotes": "endnotes", "rearnotes": "endnotes",
    ]

    /// The kind of unspoken matter an element's `epub:type` names, if any.
    static func unspokenType(_ types: String?) -> String? {
        guard let types else { return nil }
        for type in types.split(separator: " ") {
            if let kind = unspokenTypes[type.lowercased()] { return kind }
        }
        return nil
    }

    /// Words of text before the first chapter under which all of it is a title page: twenty seconds
    /// of audio before the first chapter is a title page and a note, not a chapter.
    static let titlePageWords = 60

    /// The kind of front matter a block before the first chapter is, or nil when it is the book.
    static func kind(of block: DocumentBlock) -> String? {
        guard block.text.count <= 2_000 else { return nil }
        let text = block.foldedText
        let lower = text.lowercased()
        if lower.hasPrefix("produced by") || lower.hasPrefix("e-text prepared by")
            || lower.hasPrefix("etext prepared by")
            || lower.hasPrefix("this etext was prepared") || lower.hasPrefix("this ebook was produced")
            || lower.hasPrefix("transcribed from") || lower.contains("online distributed proofreading")
            || lower.contains("www.pgdp.net") || lower.hasPrefix("note from the original file")
            || lower.hasPrefix("scanned by") || lower.hasPrefix("html version by")
        {
            return "production notes"
        }
        if lower.hasPrefix("transcriber's note") || lower.hasPrefix("transcriber’s note")
            || lower.hasPrefix("[transcriber") || lower.hasPrefix("[note:") || EditorialNotes.isTitle(text)
        {
            return "transcriber's notes"
        }
        // A part's or a section's heading the book's own heading rules did not take is still not a title page.
        if PlainTextReader.headingShape([text]) != nil { return nil }
        let words = PlainTextReader.wordCount(block.text)
        if words <= 60,
            lower.contains("copyright") || lower.contains("all rights reserved")
                || lower.contains("according to act of congress")
        {
            return "copyright"
        }
        // A title page's lines are no sentences: "By Charles Dickens", "DRACULA", "NEW YORK".
        let endsSentence = text.last.map { ".!?”\"".contains($0) } ?? false
        if words <= 15, !endsSentence || text == text.uppercased() { return "title page" }
        return nil
    }

    /// Drops the front matter before `firstChapter` (a block index), counting it in `unspoken`;
    /// returns the indices dropped. When what stays before the first chapter is still under
    /// ``titlePageWords``, it goes too.
    static func drop(before firstChapter: Int, in blocks: [DocumentBlock], _ unspoken: inout UnspokenMatter) -> Set<Int>
    {
        var dropped = Set<Int>()
        var kept: [Int] = []
        // Under a note's title ("Original Transcriber’s Notes:"), its paragraphs are the note, up to a
        // line in capitals ("ETYMOLOGY.") or a heading.
        var noteParagraphs = 0
        for index in 0..<firstChapter {
            let text = blocks[index].foldedText
            // A part's or a section's heading is the book's, whatever precedes it.
            if blocks[index].text.count <= 80, PlainTextReader.headingShape([text]) != nil {
                noteParagraphs = 0
                continue
            }
            if text.count <= 60, text == text.uppercased() { noteParagraphs = 0 }
            if let kind = kind(of: blocks[index]) ?? (noteParagraphs > 0 ? "transcriber's notes" : nil) {
                noteParagraphs = max(0, noteParagraphs - 1)
                if kind == "transcriber's notes", EditorialNotes.isTitle(text) { noteParagraphs = 6 }
                dropped.insert(index)
                unspoken.add(kind, text: blocks[index].text)
            } else {
                kept.append(index)
            }
        }
        let keptWords = kept.reduce(0) { $0 + PlainTextReader.wordCount(blocks[$1].text) }
        if keptWords < titlePageWords {
            for index in kept {
                dropped.insert(index)
                unspoken.add("title page", text: blocks[index].text)
            }
        }
        return dropped
    }
}
