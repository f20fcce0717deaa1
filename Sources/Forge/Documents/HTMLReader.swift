/// Reads HTML and XHTML into blocks of speakable text.
///
/// Block elements (`p`, `div`, `li`, `blockquote`, `td` …) become paragraphs and `h1`–`h6`
/// headings; `script`, `style`, `nav`, `head`, hidden elements (`hidden`, `aria-hidden="true"`,
/// `display: none`), page-break markers, note references and in-flow footnotes are not spoken;
/// character references are decoded; each block keeps its element id and source offsets.
///
/// HTML is read leniently, like a browser, by ``HTMLTokenizer``: unclosed paragraphs and list
/// items close themselves and stray end tags are ignored. XHTML (and EPUB content) is read by
/// libxml2's XML parser (``XMLEventParser``) and must be well formed: a mismatched or unclosed
/// element, an unterminated tag or comment, or an unknown entity is a
/// ``DocumentError/malformedMarkup(file:line:column:problem:)`` with libxml2's line, column and
/// message. What is spoken is decided in one place for both, ``BlockAssembler``.
package struct HTMLReader: DocumentReader {
    package enum Mode: Sendable {
        case html
        case xhtml
    }

    package var mode: Mode
    /// Read Project Gutenberg's header, licence and footer too (`split.keepGutenbergMatter`); by
    /// default its boilerplate sections (`class="pg-boilerplate"`, `id="pg-header"` …) are not
    /// spoken, nor, in older files, the blocks before its `*** START OF …` line and from its
    /// `*** END OF …` line on.
    package var keepsGutenbergMatter: Bool
    /// Speak the title page and other front matter before the first chapter too (``FrontMatter``).
    package var keepsFrontMatter: Bool

    package init(mode: Mode, keepsGutenbergMatter: Bool = false, keepsFrontMatter: Bool = false) {
        self.mode = mode
        self.keepsGutenbergMatter = keepsGutenbergMatter
        self.keepsFrontMatter = keepsFrontMatter
    }

    package func read(_ text: String, path: String) throws(DocumentError) -> StructuredDocument {
        var assembler = BlockAssembler(dropsGutenbergMatter: !keepsGutenbergMatter, keepsFrontMatter: keepsFrontMatter)
        switch mode {
        case .html:
            var tokenizer = HTMLTokenizer(scalars: Array(text.unicodeScalars), path: path, assembler: assembler)
            try tokenizer.run()
            assembler = tokenizer.assembler
        case .xhtml where text.unicodeScalars.allSatisfy(\.isWhiteSpace):
            // An empty content document is nothing to read, not broken XML (libxml2: "Document is empty").
            break
        case .xhtml:
            do {
                try XMLEventParser(decodesHTMLEntities: true).parse(text, into: &assembler)
            } catch {
                throw .malformedMarkup(file: path, line: error.line, column: error.column, problem: error.message)
            }
            assembler.finish()
        }
        var (blocks, blockIndexByID) = (assembler.blocks, assembler.blockIndexByID)
        var unspoken = assembler.unspoken
        let contents = Self.dropContents(
            &blocks, &blockIndexByID, linkOnly: assembler.linkOnly, blockLinks: assembler.links, unspoken: &unspoken)
        if !keepsGutenbergMatter { Self.dropGutenbergMatter(&blocks, &blockIndexByID) }
        var document = StructuredDocument(
            path: path, language: assembler.language, title: assembler.title, blocks: blocks,
            blockIndexByID: blockIndexByID)
        document.unspoken = unspoken
        if mode == .html {
            Self.applyContents(contents, to: &document)
            if !document.chaptersFromContents {
                Self.raiseChapterHeadings(&document.blocks)
                Self.joinShortOpeningSections(&document.blocks)
            }
        }
        if mode == .html, !keepsFrontMatter, !keepsGutenbergMatter {
            Self.dropFrontMatter(&document)
            let notes = EditorialNotes.blocks(in: document.blocks)
            for index in notes { document.unspoken.add("editorial notes", text: document.blocks[index].text) }
            Self.remove(notes, from: &document.blocks, &document.blockIndexByID)
        }
        return document
    }

    /// A contents list of links into the document is its chapter list: each entry's target block
    /// starts a chapter titled by the entry (or by the heading there, when the entry is only its
    /// number or a page number); an entry that names a part ("Book the First—Recalled to Life")
    /// starts a part. Used when at least three entries, and half of them, point at blocks in order.
    static func applyContents(_ entries: [BookLink], to document: inout StructuredDocument) {
        var placed: [(block: Int, title: String)] = []
        var last = -1
        var lastIsPart = false
        var proseWords: Set<String>?
        for entry in entries where entry.file.isEmpty && !entry.target.isEmpty && !isPageAnchor(entry.target) {
            // A part and its first chapter may point at one block (their anchors side by side).
            guard let block = document.blockIndexByID[entry.target], block > last || (block == last && lastIsPart),
                block < document.blocks.count
            else { continue }
            var title = ContentsList.strippingPageNumber(entry.title)
            let heading = document.blocks[block]
            if case .heading = heading.role {
                let headingText = heading.foldedText
                let isNumberOnly =
                    title.count <= 4 && title.allSatisfy { $0.isNumber || "IVXLCDMivxlcdm.".contains($0) }
                // A heading that numbers and titles its chapter ("11. The Wonderful City of Oz") is the
                // title printed where the entry ("The Emerald City of Oz") points, unless it misprints
                // the entry ("ENGINEER’THUMB": a word the book's prose never uses).
                let headingIsFullTitle =
                    ContentsList.splitLabel(headingText).flatMap(\.title).map {
                        !isPartTitle(headingText)
                            && !(ContentsList.isMisspelling(title, of: $0)
                                && isMisprint($0, of: title, &proseWords, document.blocks))
                    } ?? false
                if title.isEmpty || isNumberOnly || headingIsFullTitle
                    || ContentsList.normalized(headingText).hasPrefix(ContentsList.normalized(title) + " ")
                    || ContentsList.isMisspelling(title, of: headingText)
                {
                    title = headingText
                }
            }
            guard !title.isEmpty else { continue }
            placed.append((block, title))
            last = block
            lastIsPart = isPartTitle(title)
        }
        guard placed.count >= 3, placed.count * 2 >= entries.count else { return }
        // A first entry with only headings before the next one (the book's title over its first
        // part) is no chapter of its own: the next entry starts at its heading.
        let (start, end) = (placed[0].block, placed[1].block)
        if start < end, !isPartTitle(placed[0].title),
            document.blocks[start..<end].allSatisfy({ if case .heading = $0.role { true } else { false } })
        {
            placed[1].block = start
            placed.removeFirst()
        }
        let hasParts = placed.contains { isPartTitle($0.title) }
        for (position, (block, title)) in placed.enumerated() {
            // "FIRST EPILOGUE: 1813 - 20" over chapters counting from one again, among parts, is a part.
            let isSectionOverChapters =
                hasParts && PlainTextReader.isSectionLine(title) && position + 1 < placed.count
                && ContentsList.number(of: placed[position + 1].title).flatMap(ContentsList.value) == 1
            if isPartTitle(title) || isSectionOverChapters {
                document.blocks[block].partTitle = title
            } else {
                document.blocks[block].chapterTitle = title
            }
        }
        if !placed.contains(where: { isPartTitle($0.title) }) { addUnlistedHeadings(&document.blocks) }
        document.chaptersFromContents = true
    }

    /// Whether `heading` has a word that neither `entry` nor the book's prose uses: a misprint of the
    /// entry. `proseWords` is the prose's words, gathered at the first call.
    static func isMisprint(
        _ heading: String, of entry: String, _ proseWords: inout Set<String>?, _ blocks: [DocumentBlock]
    ) -> Bool {
        if proseWords == nil {
            var words = Set<String>()
            for block in blocks where block.role == .paragraph {
                for word in ContentsList.normalized(String(scalars: block.text)).split(separator: " ") {
                    words.insert(String(word))
                }
            }
            proseWords = words
        }
        let entryWords = Set(ContentsList.normalized(entry).split(separator: " ").map(String.init))
        return ContentsList.normalized(heading).split(separator: " ").contains {
            $0.count >= 4 && !entryWords.contains(String($0)) && !(proseWords?.contains(String($0)) ?? false)
        }
    }

    /// Contents are evidence, not law: a contents list of chapters only leaves out what the body
    /// still heads as the book's structure — its parts ("BOOK II." over "OLD AND YOUNG.", titled
    /// "BOOK II: OLD AND YOUNG") and the sections beside its chapters ("PRELUDE", "FINALE").
    static func addUnlistedHeadings(_ blocks: inout [DocumentBlock]) {
        func isHeading(_ index: Int) -> Bool { blocks[index].isHeading }
        var parts: [Int: String] = [:]
        for index in blocks.indices where isHeading(index) && blocks[index].partTitle == nil {
            let text = blocks[index].foldedText
            guard text.count <= 60, PlainTextReader.isPartLine(text) else { continue }
            var title = ContentsList.withoutFinalStops(text)
            if index + 1 < blocks.count, isHeading(index + 1), blocks[index + 1].chapterTitle == nil {
                let next = blocks[index + 1].foldedText
                if next.count <= 60, PlainTextReader.headingShape([next]) == nil, ContentsList.splitLabel(next) == nil {
                    title = ContentsList.Entry.casedLabel(title) + ": " + ContentsList.withoutFinalStops(next)
                }
            }
            parts[index] = title
        }
        for (index, title) in parts { blocks[index].partTitle = title }
        // Sections stand beside the parts, as in text: a part of their own, which the splitter
        // makes a chapter in no part again.
        for index in blocks.indices where isHeading(index) && blocks[index].chapterTitle == nil && parts[index] == nil {
            let text = blocks[index].foldedText
            guard text.count <= 60, PlainTextReader.isSectionLine(text) else { continue }
            // Not the title line under an entry's heading ("I" over "Introduction").
            var above = index - 1
            var titlesAnEntry = false
            while above >= max(0, index - 2), isHeading(above) {
                if blocks[above].chapterTitle != nil || blocks[above].partTitle != nil { titlesAnEntry = true }
                above -= 1
            }
            if titlesAnEntry { continue }
            if parts.isEmpty { blocks[index].chapterTitle = text } else { blocks[index].partTitle = text }
        }
    }

    /// Short sections before the first numbered chapter or act ("THE PERSONS IN THE PLAY", "THE
    /// SCENES OF THE PLAY", "LONDON: ST. JAMES’S THEATRE" before "FIRST ACT"), together under a
    /// minute, are one opening chapter under the first one's heading: the others are read as text.
    static func joinShortOpeningSections(_ blocks: inout [DocumentBlock]) {
        func isNumbered(_ text: String) -> Bool {
            let words = text.split(separator: " ")
            return PlainTextReader.isChapterLine(text) || PlainTextReader.isPartLine(text)
                || PlainTextReader.isOrdinalFirst(words, ["chapter", "act", "part", "book", "scene"])
        }
        guard let first = blocks.indices.first(where: { blocks[$0].isHeading && isNumbered(blocks[$0].foldedText) })
        else { return }
        // Headings at the first chapter's level: the book's title above them is its title page.
        let sections = blocks.indices.prefix(first).filter {
            blocks[$0].role == blocks[first].role && !PlainTextReader.isSectionLine(blocks[$0].foldedText)
        }
        guard sections.count >= 2,
            blocks[sections[0]..<first].reduce(0, { $0 + PlainTextReader.wordCount($1.text) }) <= 150
        else { return }
        for index in sections.dropFirst() { blocks[index].role = .paragraph }
    }

    /// A printed page's anchor (`page_001`, `Page_14`, `pg23`): a contents entry's page number
    /// points there, not at a chapter.
    static func isPageAnchor(_ target: String) -> Bool {
        let lower = target.lowercased()
        for prefix in ["page", "pg", "p"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count).drop { $0 == "_" || $0 == "-" || $0 == "." }
            if !rest.isEmpty, rest.allSatisfy({ $0.isNumber || "ivxlcdm".contains($0) }) { return true }
        }
        return false
    }

    /// Chapters marked at a deeper level than `h2` (Gutenberg HTML has them at any level, `h3`
    /// "CHAPTER I" under an `h1` title and an `h2` author) are raised to `h2`, and the levels above
    /// them to `h1`: the shallowest level with three headings of a chapter's or section's shape is
    /// the chapters' level.
    static func raiseChapterHeadings(_ blocks: inout [DocumentBlock]) {
        var shaped: [Int: Int] = [:]
        for block in blocks {
            guard case .heading(let level) = block.role, block.text.count <= 80 else { continue }
            let text = block.foldedText
            if PlainTextReader.headingShape([text]) != nil || ContentsList.splitLabel(text) != nil {
                shaped[level, default: 0] += 1
            }
        }
        guard let chapterLevel = shaped.filter({ $0.value >= 3 }).keys.min(), chapterLevel > 2 else { return }
        for index in blocks.indices {
            guard case .heading(let level) = blocks[index].role else { continue }
            let raised = level < chapterLevel ? 1 : level == chapterLevel ? 2 : 3
            blocks[index].role = .heading(level: raised)
        }
    }

    /// "Book the First—Recalled to Life", "PART II", "Volume One": an entry above chapters.
    static func isPartTitle(_ title: String) -> Bool {
        PlainTextReader.isPartLine(title)
            || (ContentsList.splitLabel(title).map { PlainTextReader.isPartLine($0.label) } ?? false)
    }

    /// The title page, imprint and notes before the first chapter (``FrontMatter``): before the
    /// first contents entry, or else before the first heading followed by text of a chapter's length.
    static func dropFrontMatter(_ document: inout StructuredDocument) {
        let blocks = document.blocks
        let first: Int?
        if document.chaptersFromContents {
            first = blocks.firstIndex { $0.chapterTitle != nil || $0.partTitle != nil }
        } else {
            // The first heading with text of the book under it, not a title page's lines.
            var candidate: Int?
            first = blocks.indices.first { index in
                if case .heading(let level) = blocks[index].role, level <= 2 {
                    candidate = index
                    return false
                }
                return candidate != nil && FrontMatter.kind(of: blocks[index]) == nil
            }.flatMap { _ in candidate }
        }
        guard let first, first > 0 else { return }
        var unspoken = document.unspoken
        let dropped = FrontMatter.drop(before: first, in: blocks, &unspoken)
        document.unspoken = unspoken
        remove(dropped, from: &document.blocks, &document.blockIndexByID)
    }

    /// A table of contents is not read aloud: a run of blocks that are links into the book (three or
    /// more; short unlinked blocks such as "CHAPTER I." or page numbers between them allowed), and a
    /// "Contents" title just before it; or one paragraph of five links or more with titles' text
    /// around them. Returns the entries of the contents list (the run after a "Contents" title, else the first
    /// run that is not a list of illustrations).
    @discardableResult
    static func dropContents(
        _ blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int], linkOnly: [Bool],
        blockLinks: [[BookLink]] = [], unspoken: inout UnspokenMatter
    ) -> [BookLink] {
        var drop = Set<Int>()
        var runs = contentsParagraphs(blocks, linkOnly: linkOnly, blockLinks: blockLinks, &drop, &unspoken)
        runs += linkRuns(blocks, linkOnly: linkOnly, blockLinks: blockLinks, &drop, &unspoken)
        dropListsUnderHeadings(blocks, linkOnly: linkOnly, &drop, &unspoken)
        remove(drop, from: &blocks, &blockIndexByID)
        return (runs.first { $0.titled } ?? runs.first { !$0.illustrations })?.entries ?? []
    }

    /// A contents list's links, whether a "Contents" title heads it, and whether it lists illustrations.
    typealias ContentsRun = (entries: [BookLink], titled: Bool, illustrations: Bool)

    /// Contents lists set as one paragraph each.
    static func contentsParagraphs(
        _ blocks: [DocumentBlock], linkOnly: [Bool], blockLinks: [[BookLink]], _ drop: inout Set<Int>,
        _ unspoken: inout UnspokenMatter
    ) -> [ContentsRun] {
        var runs: [ContentsRun] = []
        // A contents list set as one paragraph: five links or more, each with a title's length of
        // text around it (`<a href="#ch1">I.</a> The Period<br/>`), or longer under a "Contents"
        // title (a chapter's synopsis after its link). A paragraph of links only is one too when no
        // other link block stands beside it (the runs below take those).
        func isAlone(_ index: Int) -> Bool {
            (index == 0 || !linkOnly[index - 1]) && (index + 1 == blocks.count || !linkOnly[index + 1])
        }
        for index in blocks.indices where index < blockLinks.count && blockLinks[index].count >= 5 {
            guard !linkOnly[index] || isAlone(index) else { continue }
            let title = index > 0 ? blocks[index - 1].foldedText.lowercased() : ""
            let titled = index > 0 && PlainTextReader.isContentsTitle(blocks[index - 1].text)
            let illustrations = title.count < 60 && (title.contains("illustration") || title.contains("plates"))
            let perLink = titled ? 300 : 90
            guard blocks[index].text.count <= blockLinks[index].count * perLink else { continue }
            drop.insert(index)
            unspoken.add(illustrations ? "list of illustrations" : "contents", text: blocks[index].text)
            if titled || illustrations {
                drop.insert(index - 1)
                unspoken.add(illustrations ? "list of illustrations" : "contents", text: blocks[index - 1].text)
            }
            runs.append((blockLinks[index], titled, illustrations))
        }
        return runs
    }

    /// Runs of link blocks: contents lists and lists of illustrations.
    static func linkRuns(
        _ blocks: [DocumentBlock], linkOnly: [Bool], blockLinks: [[BookLink]], _ drop: inout Set<Int>,
        _ unspoken: inout UnspokenMatter
    ) -> [ContentsRun] {
        var runs: [ContentsRun] = []
        var index = 0
        while index < blocks.count {
            guard linkOnly[index] else {
                index += 1
                continue
            }
            var end = index
            var links = 1
            var next = index + 1
            func isShortText(_ block: DocumentBlock) -> Bool {
                if case .heading = block.role { return false }
                return block.text.count <= 16
            }
            // An entry's title in a cell or line of its own beside the link ("Chapter 1." | "Mr.
            // Sherlock Holmes"): one such block after each link.
            func isEntryTitle(_ position: Int) -> Bool {
                if case .heading = blocks[position].role { return false }
                // After the link, or after a column's heading after it ("CHAPTER I" | "Page" | title).
                let afterLink =
                    linkOnly[position - 1]
                    || (position >= 2 && linkOnly[position - 2] && isShortText(blocks[position - 1]))
                return blocks[position].text.count <= 120 && afterLink
            }
            // A part's heading between its chapters' links ("BOOK II" over a table of its chapters).
            func isPartHeading(_ position: Int) -> Bool {
                guard case .heading = blocks[position].role, position + 1 < blocks.count, linkOnly[position + 1]
                else { return false }
                return PlainTextReader.isPartLine(blocks[position].foldedText)
            }
            while next < blocks.count,
                linkOnly[next] || isShortText(blocks[next]) || isEntryTitle(next) || isPartHeading(next)
            {
                if linkOnly[next] {
                    links += 1
                    end = next
                }
                next += 1
            }
            // The last entry's page number.
            while end + 1 < blocks.count, isShortText(blocks[end + 1]),
                blocks[end + 1].foldedText.allSatisfy({ $0.isNumber || "ivxlcdmIVXLCDM.".contains($0) })
            {
                end += 1
            }
            if links >= 3 {
                drop.formUnion(index...end)
                // The first part's heading may stand between the "Contents" title and the first link.
                if index >= 2, case .heading = blocks[index - 1].role,
                    PlainTextReader.isPartLine(blocks[index - 1].foldedText),
                    PlainTextReader.isContentsTitle(blocks[index - 2].text)
                {
                    drop.insert(index - 1)
                    index -= 1
                }
                let title = index > 0 ? blocks[index - 1].foldedText.lowercased() : ""
                let titled = index > 0 && PlainTextReader.isContentsTitle(blocks[index - 1].text)
                let illustrations = title.count < 60 && (title.contains("illustration") || title.contains("plates"))
                if titled || (illustrations && blocks[index - 1].text.count < 60) { drop.insert(index - 1) }
                let entries = runEntries(index...end, blocks, linkOnly, blockLinks)
                runs.append((entries, titled, illustrations))
                for block in drop.sorted() where block >= index - 1 && block <= end {
                    unspoken.add(illustrations ? "list of illustrations" : "contents", text: blocks[block].text)
                }
            }
            index = end + 1
        }
        return runs
    }

    /// The links of a run of contents blocks, each with the text after it in a block of its own
    /// (its title, when the link holds only its number).
    static func runEntries(
        _ run: ClosedRange<Int>, _ blocks: [DocumentBlock], _ linkOnly: [Bool], _ blockLinks: [[BookLink]]
    ) -> [BookLink] {
        var entries: [BookLink] = []
        for position in run where blockLinks.indices.contains(position) {
            var links = blockLinks[position]
            if links.count == 1, linkOnly[position], position + 1 <= run.upperBound, !linkOnly[position + 1],
                blocks[position + 1].role == .paragraph
            {
                links[0].tail = blocks[position + 1].text
                // "CHAPTER V" | "Page" | "Letters—Lucy and Mina  51": a label's title in a
                // row of its own, after a column heading, beside its page number.
                if let title = labelTitle(after: position, through: run.upperBound, blocks, linkOnly, blockLinks) {
                    links[0].tail = title
                    links[0].labelTakesTail = true
                }
            }
            entries += links
        }
        return entries
    }

    /// The title of a contents entry whose link is only its label ("CHAPTER V"), set in a cell or
    /// row of its own within the next three blocks, before the next entry: text that is not only
    /// links, whose links are page numbers, and is not a column's heading ("Page").
    static func labelTitle(
        after position: Int, through end: Int, _ blocks: [DocumentBlock], _ linkOnly: [Bool],
        _ blockLinks: [[BookLink]]
    ) -> [Unicode.Scalar]? {
        func isPageNumber(_ link: BookLink) -> Bool {
            String(foldingWhiteSpaceOf: link.text).allSatisfy { $0.isNumber || "ivxlcdmIVXLCDM".contains($0) }
        }
        let label = String(foldingWhiteSpaceOf: blockLinks[position][0].text)
        guard let split = ContentsList.splitLabel(label), split.title == nil else { return nil }
        for row in (position + 1)...min(position + 3, end) {
            let links = row < blockLinks.count ? blockLinks[row] : []
            if linkOnly[row] {
                if links.allSatisfy(isPageNumber) { continue }
                return nil
            }
            let text = ContentsList.strippingPageNumber(blocks[row].foldedText)
            guard links.allSatisfy(isPageNumber), text.count > 2, text.contains(where: \.isLetter),
                !["page", "pages", "page."].contains(text.lowercased())
            else { continue }
            return Array(text.unicodeScalars)
        }
        return nil
    }

    /// Lists under a "Contents" or "Illustrations" heading not already dropped.
    static func dropListsUnderHeadings(
        _ blocks: [DocumentBlock], linkOnly: [Bool], _ drop: inout Set<Int>, _ unspoken: inout UnspokenMatter
    ) {
        // A "Contents" or "Illustrations" heading over short lines only (a list without links, or
        // one whose links the run above did not take): the list is not spoken either.
        for index in blocks.indices where !drop.contains(index) {
            guard case .heading = blocks[index].role, blocks[index].text.count <= 40 else { continue }
            let title = blocks[index].foldedText.lowercased().trimmingCharacters(in: .punctuationCharacters)
            let isList =
                PlainTextReader.isContentsTitle(blocks[index].text)
                || ["illustrations", "list of illustrations", "list of plates"].contains(title)
            guard isList else { continue }
            var end = index + 1
            while end < blocks.count, blocks[end].text.count <= 100 {
                if case .heading = blocks[end].role, !linkOnly[end] { break }
                end += 1
            }
            guard end - index >= 3 else { continue }
            for block in index..<end {
                drop.insert(block)
                unspoken.add(
                    title.contains("contents") ? "contents" : "list of illustrations", text: blocks[block].text)
            }
        }
    }

    /// Removes the blocks at `drop`, keeping every id pointing at the block it named.
    static func remove(_ drop: Set<Int>, from blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int]) {
        guard !drop.isEmpty else { return }
        var newIndex: [Int] = []
        var kept: [DocumentBlock] = []
        for (position, block) in blocks.enumerated() {
            newIndex.append(kept.count)
            if !drop.contains(position) { kept.append(block) }
        }
        blockIndexByID = blockIndexByID.compactMapValues { drop.contains($0) ? nil : newIndex[$0] }
        blocks = kept
    }

    /// Ids of Project Gutenberg's boilerplate elements in its HTML files.
    static let gutenbergIDs: Set<String> = [
        "pg-header", "pg-footer", "pg-machine-header", "pg-start-separator", "pg-end-separator",
    ]

    /// Older Project Gutenberg HTML keeps its header and licence as text: the blocks up to the one
    /// with `*** START OF THE PROJECT GUTENBERG EBOOK …` and from the one with `*** END OF …` go.
    static func dropGutenbergMatter(_ blocks: inout [DocumentBlock], _ blockIndexByID: inout [String: Int]) {
        func marker(_ block: DocumentBlock, _ word: String) -> Bool {
            // The marker opens its block, which may hold the whole licence after it.
            let text = GutenbergMarkers.fold(String(foldingWhiteSpaceOf: block.text.prefix(3_000)).uppercased())
            return text.contains("\(word) OF THE PROJECT GUTENBERG")
                || text.contains("\(word) OF THIS PROJECT GUTENBERG")
        }
        let start = blocks.firstIndex { marker($0, "START") }
        let end = blocks[((start ?? -1) + 1)...].firstIndex { marker($0, "END") } ?? blocks.count
        guard start != nil || end < blocks.count else { return }
        remove((start.map { Set(0...$0) } ?? []).union(end..<blocks.count), from: &blocks, &blockIndexByID)
    }

    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div",
        "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup",
        "hr", "html", "legend", "li", "main", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot",
        "th",
        "thead", "tr", "ul",
    ]
    /// Elements whose content is never spoken.
    static let unspokenElements: Set<String> = [
        "script", "style", "nav", "head", "template", "noscript", "svg", "math", "rt", "rp", "iframe", "object",
        "audio",
        "video", "canvas", "button", "select", "textarea", "datalist",
    ]
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is raw text, not markup.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title"]
    /// `epub:type` / `role` values of content a reader does not read aloud in sequence.
    static let unspokenTypes: Set<String> = [
        "pagebreak", "noteref", "footnote", "endnote", "rearnote", "doc-pagebreak", "doc-noteref", "doc-footnote",
        "doc-endnote", "presentation-only",
    ]
}
