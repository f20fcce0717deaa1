import Foundation

/// Plain text: paragraphs separated by blank lines, hard-wrapped lines joined. A short paragraph set
/// apart by blank lines is a heading when it has a heading's shape (``HeadingShape``):
/// - a chapter: "Chapter 12", "CHAPTER XII.", "Chapter the First", "第十二章", or a chapter line
///   whose title wraps onto a second short line;
/// - a part: "BOOK ONE", "BOOK FIVE: 1806 - 07", "PART THE FIRST", "Volume II";
/// - a section: "PREFACE", "INTRODUCTION", "PROLOGUE", "EPILOGUE", "FIRST EPILOGUE: 1813 - 20",
///   "APPENDIX A", "FOREWORD", "AFTERWORD".
/// Headings in shapes of the book's own — a counter in a decoration, `~ 1 ~`, `[ 2 ]`, `IV.`, `Canto
/// III` — are found from how they recur through the book (``CounterHeadings``).
/// Without parts, chapters and sections are level-1 headings. In a book with parts, parts are level 1
/// and chapters level 2, and a section stands beside the parts (level 1, a part of its own: an
/// epilogue with chapters of its own holds them as a part holds its chapters).
package struct PlainTextReader: DocumentReader {
    /// What a short paragraph can be the heading of.
    enum HeadingShape: Equatable {
        case chapter
        case part
        case section
    }

    /// Keep a Project Gutenberg text's front and back matter (its licence, the header before
    /// `*** START OF THE PROJECT GUTENBERG EBOOK …` and everything from `*** END OF …`): the recipe's
    /// `split.keepGutenbergMatter`. Dropped by default: it is not the book.
    package var keepsGutenbergMatter: Bool
    /// The recipe's heading rules (`split.headings`), replacing the built-in shapes; nil: the shapes.
    package var headingPatterns: HeadingPatterns?
    /// Speak the title page, imprint and other front matter before the first chapter too
    /// (``FrontMatter``): the recipe's `split.keepFrontMatter`.
    package var keepsFrontMatter: Bool

    package init(
        keepsGutenbergMatter: Bool = false, headingPatterns: HeadingPatterns? = nil, keepsFrontMatter: Bool = false
    ) {
        self.keepsGutenbergMatter = keepsGutenbergMatter
        self.headingPatterns = headingPatterns
        self.keepsFrontMatter = keepsFrontMatter
    }

    package func read(_ text: String, path: String) -> StructuredDocument {
        let scalars = Array(text.unicodeScalars)
        var read = Paragraphs()
        var current: [Range<Int>] = []
        let patterns = headingPatterns?.compiled()
        func flush() {
            read.add(current, scalars, patterns: patterns)
            current = []
        }
        let lines = TextLines.lines(scalars)
        var unspoken = UnspokenMatter()
        let body = keepsGutenbergMatter ? lines.indices : Self.gutenbergBody(lines, scalars)
        for index in lines.indices where !body.contains(index) {
            unspoken.add("Project Gutenberg header and licence", text: scalars[lines[index]])
        }
        let contents = patterns == nil ? ContentsList.find(lines, scalars, in: body) : nil
        for index in body {
            let line = lines[index]
            if let contents, contents.lines.contains(index) {
                flush()
                unspoken.add("contents", text: scalars[line])
                continue
            }
            guard let trimmed = SentenceSegmenter.trim(scalars, line) else {
                flush()
                continue
            }
            current.append(trimmed)
        }
        flush()
        var (blocks, shapes) = (read.blocks, read.shapes)
        let singleLines = read.singleLines
        if patterns == nil {
            Self.addCounterHeadings(&blocks, &shapes, singleLines: singleLines)
            if contents == nil { Self.addCapitalTitleHeadings(&blocks, &shapes, singleLines: singleLines) }
        }
        Self.dropContentsHeadings(&blocks, &shapes)
        let warnings = contents.map { Self.apply($0, to: &blocks, &shapes, path: path) } ?? []
        if patterns == nil { Self.titleNumberedHeadings(&blocks, &shapes) }
        if !keepsFrontMatter, !keepsGutenbergMatter {
            Self.dropFrontMatter(&blocks, &shapes, &unspoken)
            Self.dropEditorialNotes(&blocks, &shapes, &unspoken)
        }
        Self.setLevels(&blocks, shapes)
        var document = StructuredDocument(path: path, language: nil, title: nil, blocks: blocks)
        document.unspoken = unspoken
        document.warnings = warnings
        return document
    }

    /// The paragraphs read so far: each block, its heading shape (if it is a heading), and the
    /// text of a short one-line paragraph, which may be a heading of a series the book itself shows.
    struct Paragraphs {
        var blocks: [DocumentBlock] = []
        var shapes: [HeadingShape?] = []
        var singleLines: [String?] = []

        /// Adds the paragraph of `current`'s lines (ranges of `scalars`): a heading, a paragraph, or
        /// nothing for a table of contents set as one paragraph (which takes its "Contents" line with it).
        mutating func add(
            _ current: [Range<Int>], _ scalars: [Unicode.Scalar], patterns: [(HeadingShape, Regex<AnyRegexOutput>)]?
        ) {
            guard !current.isEmpty else { return }
            if current.count == 1,
                let spaced = PlainTextReader.letterSpacedBlock(scalars, current[0], patterns: patterns)
            {
                blocks.append(spaced.block)
                shapes.append(spaced.shape)
                singleLines.append(spaced.shape == nil ? String(scalars: spaced.block.text) : nil)
                return
            }
            let lines = current.count <= 2 ? current.map { String(scalars: scalars[$0]) } : []
            if current.count >= 3, current.prefix(2).allSatisfy({ PlainTextReader.mayBeContentsEntry(scalars[$0]) }),
                PlainTextReader.isContentsList(current.map { String(scalars: scalars[$0]) })
            {
                if let last = blocks.last, PlainTextReader.isContentsTitle(last.text) {
                    blocks.removeLast()
                    shapes.removeLast()
                    singleLines.removeLast()
                }
                return
            }
            if let shape = patterns.map({ PlainTextReader.headingShape(lines, patterns: $0) })
                ?? PlainTextReader.headingShape(lines)
            {
                blocks.append(
                    current.count == 1
                        ? TextLines.heading(scalars, indices: Array(current[0]), level: 1)
                        : TextLines.paragraph(scalars, lines: current, role: .heading(level: 1)))
                shapes.append(shape)
                singleLines.append(nil)
            } else {
                blocks.append(TextLines.paragraph(scalars, lines: current))
                shapes.append(nil)
                // A heading's title may be on a line of its own under it ("CHAPTER ONE" / "PLAYING PILGRIMS").
                let isShort =
                    current.count <= 2 && lines[0].count <= CounterLine.maximumLength
                    && (lines.count == 1 || lines[1].count <= 60)
                singleLines.append(isShort ? lines[0] : nil)
            }
        }
    }

    /// A line set in spaced capitals ("P R E F A C E") as the words it spells: a heading when they
    /// read as one, else a paragraph.
    static func letterSpacedBlock(
        _ scalars: [Unicode.Scalar], _ line: Range<Int>, patterns: [(HeadingShape, Regex<AnyRegexOutput>)]?
    ) -> (block: DocumentBlock, shape: HeadingShape?)? {
        guard let letters = TextLines.letterSpaced(scalars, line) else { return nil }
        let heading = TextLines.heading(scalars, indices: letters, level: 1)
        let text = String(scalars: heading.text)
        if let shape = patterns.map({ headingShape([text], patterns: $0) }) ?? headingShape([text]) {
            return (heading, shape)
        }
        return (DocumentBlock(role: .paragraph, text: heading.text, origins: letters, elementID: nil), nil)
    }

    /// In a book with parts, parts and sections are level 1 (``DocumentBlock/isPart``) and chapters
    /// level 2; without parts every heading stays level 1.
    static func setLevels(_ blocks: inout [DocumentBlock], _ shapes: [HeadingShape?]) {
        guard shapes.contains(.part) else { return }
        for index in blocks.indices {
            switch shapes[index] {
            case .part?, .section?: blocks[index].isPart = true
            case .chapter?: blocks[index].role = .heading(level: 2)
            case nil: break
            }
        }
    }

    /// Starts a chapter (or a part) at every block where the contents list's entries are found,
    /// titled by the entry; when most entries are not in the text, leaves the headings to decide and
    /// returns the warning that says so.
    static func apply(
        _ contents: ContentsList, to blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?], path: String
    ) -> [String] {
        let found = contents.locate(in: blocks)
        guard found.count >= max(2, (contents.entries.count + 1) / 2) else {
            return [
                "\(path): the contents list names \(contents.entries.count) chapters, but only \(found.count) of them were found in the text (a different edition's contents?); chapters come from the headings instead."
            ]
        }
        // Contents of synopses ("Y-o-u-u Tom--Aunt Polly Decides Upon her Duty--Tom Practices
        // Music"), most entries phrases parted by dashes: a chapter the body heads by its number
        // alone is titled by the number.
        let titled = contents.entries.compactMap(\.title)
        let synopses = titled.count(where: { $0.contains("--") || $0.contains("—") }) * 2 > titled.count
        for (index, entry) in found {
            blocks[index].chapterTitle = entry.displayTitle
            if ContentsList.isMisspelling(entry.displayTitle, of: blocks[index].foldedText) {
                blocks[index].chapterTitle = blocks[index].foldedText
            }
            if synopses, let label = entry.label,
                ContentsList.normalized(blocks[index].foldedText) == ContentsList.normalized(label)
            {
                blocks[index].chapterTitle = ContentsList.Entry.casedLabel(blocks[index].foldedText)
            }
            // A listed chapter is a chapter, though its heading's series looked like parts
            // ("ADVENTURE I." over sections "I.", "II.").
            if shapes[index] == nil || (entry.isPart && shapes[index] != .part)
                || (!entry.isPart && shapes[index] == .part)
            {
                shapes[index] = entry.isPart ? .part : .chapter
                blocks[index].role = .heading(level: 1)
            }
        }
        // The title line under a listed number ("X." over "THE EPILOGUE.", listed as "X. THE
        // EPILOGUE.") is that chapter's title, not a section of its own.
        let listed = Set(found.map(\.block))
        for (index, entry) in found where index + 1 < blocks.count && !listed.contains(index + 1) {
            guard shapes[index + 1] != nil, let title = entry.title,
                ContentsList.normalized(blocks[index + 1].foldedText) == ContentsList.normalized(title)
            else { continue }
            shapes[index + 1] = nil
            blocks[index + 1].role = .heading(level: 3)
        }
        placeMisnumbered(contents.entries, found: found, in: &blocks, shapes, byNumber: synopses)
        demoteUnlistedNumerals(&blocks, &shapes, listed: Set(found.map(\.block)))
        return []
    }

    /// An entry not found in the body whose place there holds one chapter heading the contents do
    /// not list — between the chapters of the entries around it — is that chapter, with a misprinted
    /// number ("CHAPTER XVI" where the contents read "CHAPTER XXVI"): titled by the entry.
    static func placeMisnumbered(
        _ entries: [ContentsList.Entry], found: [(block: Int, entry: ContentsList.Entry)],
        in blocks: inout [DocumentBlock], _ shapes: [HeadingShape?], byNumber: Bool
    ) {
        // The one entry missing between two found (or after the last), and the one unlisted
        // chapter heading between their chapters.
        func place(_ missing: [ContentsList.Entry], in stretch: Range<Int>) {
            guard missing.count == 1, !missing[0].isPart, let label = missing[0].label else { return }
            let unlisted = stretch.filter { shapes[$0] == .chapter && blocks[$0].chapterTitle == nil }
            // Only a misprinted number: where the numbers agree, the titles differ, and the body's
            // heading is the better witness.
            guard unlisted.count == 1, let printed = ContentsList.number(of: blocks[unlisted[0]].foldedText),
                let listed = ContentsList.number(of: label) ?? ContentsList.number(of: label + "."), printed != listed
            else { return }
            blocks[unlisted[0]].chapterTitle =
                byNumber ? ContentsList.withoutFinalStops(label) : missing[0].displayTitle
        }
        var next = 0
        var previousBlock = -1
        var missing: [ContentsList.Entry] = []
        for entry in entries {
            if next < found.count, found[next].entry == entry {
                place(missing, in: (previousBlock + 1)..<found[next].block)
                missing = []
                previousBlock = found[next].block
                next += 1
            } else {
                missing.append(entry)
            }
        }
        place(missing, in: (previousBlock + 1)..<blocks.count)
    }

    /// Numerals alone ("I.", "II.") that the contents list leaves out and that count again from one
    /// inside a listed chapter are its sections, not chapters: spoken, but no chapter of their own.
    static func demoteUnlistedNumerals(
        _ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?], listed: Set<Int>
    ) {
        var insideListed = false
        var restarted = false
        for index in blocks.indices {
            if listed.contains(index) {
                insideListed = shapes[index] != .part
                restarted = false
                continue
            }
            guard insideListed, shapes[index] == .chapter else { continue }
            let text = blocks[index].foldedText
            guard
                isRomanNumeralLine(text)
                    || (text.count <= 4 && text.dropLast(text.hasSuffix(".") ? 1 : 0).allSatisfy(\.isNumber))
            else { continue }
            let number = text.trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if ContentsList.value(number) == 1 { restarted = true }
            guard restarted else { continue }
            shapes[index] = nil
            blocks[index].role = .heading(level: 3)
        }
    }

    /// The title page, imprint and notes before the first heading (``FrontMatter``), in a text with
    /// two headings at least; in one without, only the production and transcriber's notes.
    static func dropFrontMatter(
        _ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?], _ unspoken: inout UnspokenMatter
    ) {
        var dropped = Set<Int>()
        if shapes.lazy.filter({ $0 != nil }).count >= 2, let first = shapes.firstIndex(where: { $0 != nil }) {
            dropped = FrontMatter.drop(before: first, in: blocks, &unspoken)
            // A title page's credit line that reads as a section ("INTRODUCTION AND NOTES BY …") right
            // over the section itself ("INTRODUCTION") heads nothing.
            if shapes[first] == .section, first + 1 < blocks.count, shapes[first + 1] == .section,
                blocks[first].chapterTitle == nil
            {
                dropped.insert(first)
                unspoken.add("title page", text: blocks[first].text)
            }
        } else {
            // A book without chapters keeps its title and author lines, but not who produced the file.
            for index in blocks.indices.prefix(10) {
                guard let kind = FrontMatter.kind(of: blocks[index]), kind.hasSuffix("notes") else { continue }
                dropped.insert(index)
                unspoken.add(kind, text: blocks[index].text)
            }
        }
        guard !dropped.isEmpty else { return }
        blocks = blocks.indices.filter { !dropped.contains($0) }.map { blocks[$0] }
        shapes = shapes.indices.filter { !dropped.contains($0) }.map { shapes[$0] }
    }

    /// An edition's notes about itself ("A NOTE ON THE TEXT" at the end) are not spoken (``EditorialNotes``).
    static func dropEditorialNotes(
        _ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?], _ unspoken: inout UnspokenMatter
    ) {
        let notes = EditorialNotes.blocks(in: blocks)
        guard !notes.isEmpty else { return }
        for index in notes.sorted() { unspoken.add("editorial notes", text: blocks[index].text) }
        blocks = blocks.indices.filter { !notes.contains($0) }.map { blocks[$0] }
        shapes = shapes.indices.filter { !notes.contains($0) }.map { shapes[$0] }
    }

    /// A chapter heading that is only a number ("CHAPTER I") over a title line of its own
    /// ("JONATHAN HARKER'S JOURNAL") is titled by both: "Chapter I: JONATHAN HARKER'S JOURNAL".
    /// A part's title line ("BOOK I." over "MISS BROOKE.") is a heading too, so the part's first
    /// chapter, not a chapter of its title alone, follows it.
    static func titleNumberedHeadings(_ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?]) {
        for index in blocks.indices.dropLast() where shapes[index] == .chapter && shapes[index + 1] == .section {
            // "CHAPTER TEN" over "The Epilogue": the chapter's title, not a section of its own.
            let heading = blocks[index].foldedText
            guard blocks[index].chapterTitle == nil, ContentsList.isNumberLabel(heading) else { continue }
            blocks[index].chapterTitle = ContentsList.Entry.casedLabel(heading) + ": " + blocks[index + 1].foldedText
            blocks[index + 1].role = .heading(level: 3)
            shapes[index + 1] = nil
        }
        for index in blocks.indices.dropLast() where shapes[index] != nil && shapes[index + 1] == nil {
            let heading = blocks[index].foldedText
            let isPart = shapes[index] == .part
            let label = ContentsList.Entry.casedLabel(heading)
            if blocks[index].chapterTitle == label { blocks[index].chapterTitle = nil }
            guard isPart || blocks[index].chapterTitle == nil,
                isPart || ContentsList.isNumberLabel(heading) || (isChapterLine(heading) && heading.count <= 20),
                let title = titleLine(blocks[index + 1])
            else { continue }
            if blocks[index].chapterTitle == nil {
                blocks[index].chapterTitle = label + ": " + title
            }
            if isPart { blocks[index + 1].role = .heading(level: 3) }
        }
    }

    /// A paragraph that reads as a chapter's title: one short line, capitalized as a title, not a
    /// sentence of dialogue ("“TOM!”") nor a first sentence ("It was night.").
    static func titleLine(_ block: DocumentBlock) -> String? {
        guard block.text.count <= 70, block.text.filter({ $0 == "\n" }).count <= 1 else { return nil }
        var title = block.foldedText
        guard let first = title.unicodeScalars.first, first.properties.isUppercase else { return nil }
        let words = title.split(separator: " ")
        guard (2...10).contains(words.count), !"!?,;:".contains(title.last ?? " ") else { return nil }
        // A title with a full stop is in capitals ("MISS BROOKE."); "One." and "To Mrs. Saville." are text.
        if title.hasSuffix("."), title != title.uppercased() || words.count < 2 { return nil }
        let isTitleCase = words.allSatisfy { word in
            word.count < 4 || word.first.map { $0.isUppercase || !$0.isLetter } ?? true
        }
        guard isTitleCase, !isDateLine(title) else { return nil }
        if title.hasSuffix(".") { title.removeLast() }
        return title
    }

    /// A letter's date line ("St. Petersburgh, Dec. 11th, 17--", "July 7th, 17--"): a month and a
    /// number, or a year left blank.
    static func isDateLine(_ line: String) -> Bool {
        if line.hasSuffix("--") || line.hasSuffix("—") { return true }
        let months = [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "january",
            "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
        ]
        let words = line.lowercased().split { !$0.isLetter && !$0.isNumber }
        return line.contains(where: \.isNumber) && words.contains { months.contains(String($0)) }
    }

    /// Headings of series the book itself shows (``CounterHeadings``): `~ 1 ~`, `[ 2 ]`, `IV.`, `Canto III`.
    static func addCounterHeadings(
        _ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?], singleLines: [String?]
    ) {
        let paragraphs = blocks.indices.map { index in
            CounterHeadings.Paragraph(
                line: singleLines[index], words: wordCount(blocks[index].text),
                endsSentence: endsSentence(blocks[index].text), heading: shapes[index])
        }
        for (index, shape) in CounterHeadings.find(in: paragraphs) {
            // A one-line paragraph's block is its line and a line end: the heading is the line.
            // The counter's decoration is not spoken nor part of the title ("~ 1 ~" is "1"; "IV." keeps
            // its full stop); a title on a second line follows it.
            let text = blocks[index].text
            let lineEnd = text.firstIndex(of: "\n") ?? text.endIndex
            guard let first = text[..<lineEnd].firstIndex(where: \.isLetterOrDigit),
                var last = text[..<lineEnd].lastIndex(where: \.isLetterOrDigit)
            else { continue }
            if last + 1 < lineEnd, text[last + 1] == "." { last += 1 }
            // The second line, without the paragraph's last line end.
            let titleLine = lineEnd + 1 < text.count ? Array(lineEnd..<(text.count - 1)) : []
            let kept = Array(first...last) + titleLine
            blocks[index].text = kept.map { text[$0] }
            blocks[index].origins = kept.map { blocks[index].origins[$0] }
            blocks[index].role = .heading(level: 1)
            shapes[index] = shape
        }
    }

    /// Chapters titled in capitals and nothing else ("STORY OF THE DOOR", "THE SON OF THE BRAHMAN"),
    /// in a text where no other chapter headings were found: three or more one-line paragraphs in
    /// capitals with a chapter's length of text between them (a median of ``capitalTitleGap`` words).
    static func addCapitalTitleHeadings(
        _ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?], singleLines: [String?]
    ) {
        guard shapes.lazy.filter({ $0 == .chapter }).count < 2 else { return }
        func isCapitalTitle(_ line: String) -> Bool {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let words = trimmed.split(separator: " ")
            // A short title ("OM") is letters only: "NO." or "OH!" is a line of dialogue.
            let isShortWord = trimmed.count >= 2 && trimmed.count < 4 && trimmed.allSatisfy(\.isLetter)
            guard trimmed.count >= 4 || isShortWord, trimmed.count <= 60, (1...10).contains(words.count),
                let first = trimmed.unicodeScalars.first, first.properties.isUppercase,
                trimmed.contains(where: \.isLetter), trimmed == trimmed.uppercased(),
                !"!?,;:-".contains(trimmed.last ?? " "), trimmed.filter(\.isLetter).count >= 4 || isShortWord,
                !["THE END", "FINIS", "THE END."].contains(trimmed)
            else { return false }
            return true
        }
        let all = blocks.indices.filter { index in
            shapes[index] == nil && index < singleLines.count && singleLines[index].map(isCapitalTitle) == true
                && index + 1 < blocks.count && shapes[index + 1] == nil
        }
        // A title with hardly any text under it (the book's own title over its first chapter's) heads nothing.
        let candidates = all.indices.filter { position in
            let end = position + 1 < all.count ? all[position + 1] : blocks.count
            return blocks[(all[position] + 1)..<end].reduce(0) { $0 + wordCount($1.text) } >= capitalTitleGap / 8
        }.map { all[$0] }
        guard candidates.count >= 3 else { return }
        var gaps: [Int] = []
        for (from, to) in zip(candidates, candidates.dropFirst()) {
            gaps.append(blocks[(from + 1)..<to].reduce(0) { $0 + wordCount($1.text) })
        }
        gaps.append(blocks[(candidates.last! + 1)...].reduce(0) { $0 + wordCount($1.text) })
        let sorted = gaps.sorted()
        guard sorted[sorted.count / 2] >= capitalTitleGap, sorted[sorted.count / 5] >= capitalTitleGap / 4 else {
            return
        }
        for index in candidates {
            shapes[index] = .chapter
            blocks[index].role = .heading(level: 1)
        }
    }

    /// The median words between capital titles that makes them chapters: a few pages.
    static let capitalTitleGap = 400

    /// Runs of letters or digits in `text`.
    static func wordCount(_ text: [Unicode.Scalar]) -> Int {
        var count = 0
        var inWord = false
        for scalar in text {
            // ASCII without a look-up of Unicode's properties, which would dominate splitting a book.
            let value = scalar.value
            let isWordScalar =
                value < 0x80
                ? (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A)
                    || (value >= 0x30 && value <= 0x39)
                : scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if isWordScalar && !inWord { count += 1 }
            inWord = isWordScalar
        }
        return count
    }

    /// The text does not stop mid-sentence: its last mark is not a letter, a digit, a comma, a
    /// semicolon or a hyphen.
    static func endsSentence(_ text: [Unicode.Scalar]) -> Bool {
        guard let last = text.last(where: { !$0.isWhiteSpace }) else { return true }
        return !(last.isLetterOrDigit || ",;-".unicodeScalars.contains(last))
    }

    /// The lines between Project Gutenberg's start line (`*** START OF THE (or THIS) PROJECT GUTENBERG
    /// EBOOK … ***`, with or without its asterisks, or an older header's `*END*THE SMALL PRINT!` line) and
    /// its end (`*** END OF …`, or the `End of the Project Gutenberg EBook of …` line before it, in the
    /// wordings used over the years); all lines when there is no start line.
    static func gutenbergBody(_ lines: [Range<Int>], _ scalars: [Unicode.Scalar]) -> Range<Int> {
        func text(_ line: Range<Int>) -> String? {
            guard line.count <= 200, line.count >= 12 else { return nil }
            return String(scalars: scalars[line]).uppercased()
        }
        // A marker's words start "START …" or "END …" after asterisks and spaces: other lines are
        // passed over without a string made of them.
        func mayBeMarker(_ line: Range<Int>) -> Bool {
            guard line.count <= 200, line.count >= 12,
                let first = scalars[line].firstIndex(where: { $0 != " " && $0 != "*" && $0 != "\t" }),
                first + 1 < line.upperBound
            else { return false }
            let pair = (scalars[first].properties.uppercaseMapping, scalars[first + 1].properties.uppercaseMapping)
            return pair == ("S", "T") || pair == ("E", "N")
        }
        let head = lines.prefix(max(400, lines.count / 3))
        if let start = head.firstIndex(where: { mayBeMarker($0) && (text($0).map(GutenbergMarkers.isStart) ?? false) })
        {
            let end =
                lines[(start + 1)...].firstIndex {
                    mayBeMarker($0) && (text($0).map(GutenbergMarkers.isEnd) ?? false)
                } ?? lines.count
            return (start + 1)..<end
        }
        // An older file: its header opens with "The Project Gutenberg Etext of …" and ends at a line of
        // asterisks; its footer opens with that first line again.
        guard let first = lines.prefix(10).lazy.compactMap(text).first(where: { !$0.allSatisfy(\.isWhitespace) }),
            first.contains("PROJECT GUTENBERG"),
            let start = lines.prefix(400).firstIndex(where: { line in
                let trimmed = String(scalars: scalars[line]).trimmingCharacters(in: .whitespacesAndNewlines)
                return trimmed.count >= 3 && trimmed.allSatisfy { $0 == "*" }
            })
        else { return lines.indices }
        let end =
            lines[(start + 1)...].firstIndex { line in
                text(line).map { $0 == first || GutenbergMarkers.isEnd($0) } ?? false
            } ?? lines.count
        return (start + 1)..<end
    }

    /// "Contents", "CONTENTS.", "Table of Contents", "CONTENTS:", "List of Contents".
    static func isContentsTitle(_ text: [Unicode.Scalar]) -> Bool {
        guard text.count <= 30 else { return false }
        let folded = String(foldingWhiteSpaceOf: text).lowercased().trimmingCharacters(
            in: CharacterSet(charactersIn: ".: "))
        return ["contents", "table of contents", "the contents", "list of contents"].contains(folded)
    }

    /// A cheap first look at a line of a paragraph: short (50 characters) and starting with a
    /// capital, as contents entries do; hard-wrapped prose fills its lines to 65-75 characters, so
    /// a prose paragraph fails on its first two lines before any string is made.
    static func mayBeContentsEntry(_ line: ArraySlice<Unicode.Scalar>) -> Bool {
        guard line.count <= 50, let first = line.first(where: { $0 != " " && $0 != "\t" }) else { return false }
        return first.properties.isUppercase
    }

    /// A paragraph of three or more lines, most of them chapter, part or section lines (a page number
    /// or a title after them allowed): a table of contents.
    static func isContentsList(_ lines: [String]) -> Bool {
        let entries = lines.filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return isChapterLine(trimmed) || isPartLine(trimmed) || isSectionLine(trimmed)
                || isRomanNumeralLine(trimmed)
        }
        return entries.count * 5 >= lines.count * 3
    }

    /// A table of contents set one entry per paragraph looks like a run of headings with no text
    /// between them, whose titles come again later in the book. Such a run (at least three headings,
    /// at least three of them repeated later) is dropped but for its last heading — and the part
    /// or section above that, when the last is a chapter — which start the book. A "Contents" line
    /// just before it goes too.
    static func dropContentsHeadings(_ blocks: inout [DocumentBlock], _ shapes: inout [HeadingShape?]) {
        // Headings' titles only: folding every paragraph would cost a tenth of splitting a book.
        let titles = blocks.indices.map {
            shapes[$0] == nil ? "" : String(foldingWhiteSpaceOf: blocks[$0].text).lowercased()
        }
        var drop = Set<Int>()
        // How often each heading's title occurs from the current run on: a title counted after
        // the run's own are taken off comes again later.
        var ahead: [String: Int] = [:]
        for index in blocks.indices where shapes[index] != nil { ahead[titles[index], default: 0] += 1 }
        var index = 0
        while index < blocks.count {
            guard shapes[index] != nil else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < blocks.count, shapes[end + 1] != nil { end += 1 }
            // The run but its last heading (which may well be the first chapter an entry names).
            for run in index..<end { ahead[titles[run], default: 0] -= 1 }
            let repeated = (index..<end).filter { ahead[titles[$0], default: 0] > 0 }
            ahead[titles[end], default: 0] -= 1
            if end - index + 1 >= 3, repeated.count >= 3 {
                var keep = end
                if shapes[end] == .chapter, end > index, shapes[end - 1] != .chapter { keep = end - 1 }
                drop.formUnion(index..<keep)
                if index > 0, isContentsTitle(blocks[index - 1].text) { drop.insert(index - 1) }
            }
            index = end + 1
        }
        guard !drop.isEmpty else { return }
        blocks = blocks.indices.filter { !drop.contains($0) }.map { blocks[$0] }
        shapes = shapes.indices.filter { !drop.contains($0) }.map { shapes[$0] }
    }

    /// The heading a paragraph of these lines is by the recipe's patterns: the first kind whose
    /// pattern a one-line paragraph matches.
    static func headingShape(_ lines: [String], patterns: [(HeadingShape, Regex<AnyRegexOutput>)]) -> HeadingShape? {
        guard lines.count == 1, lines[0].count <= HeadingPatterns.maximumLineLength else { return nil }
        return patterns.first { lines[0].contains($0.1) }?.0
    }

    /// The heading a paragraph of these lines is, if any: one line of a heading's shape, or a chapter
    /// line whose title wraps onto a second short line.
    static func headingShape(_ lines: [String]) -> HeadingShape? {
        switch lines.count {
        case 1:
            let line = lines[0]
            // A Roman numeral alone ("IV.") is a chapter only in a series of them (``CounterHeadings``):
            // alone, "I." is as likely a line of dialogue.
            if isChapterLine(line) { return .chapter }
            if isPartLine(line) { return .part }
            if isSectionLine(line) { return .section }
            return nil
        case 2:
            // "CHAPTER 12. Of the Less Likely Pictures of Ships, and the True" / "Pictures of Harbour Scenes."
            guard lines[0].count <= 80, lines[1].count <= 60, isChapterLine(lines[0]),
                lines[0].split(separator: " ").count >= 3
            else { return nil }
            return .chapter
        default:
            return nil
        }
    }

    /// "BOOK ONE", "Part II", "VOLUME 3", "Book the First", "BOOK FIVE: 1806 - 07": a heading above
    /// chapters. After the number comes nothing, a subtitle after ":" or "." or a dash, or capitals
    /// ("PART THE FIRST"), so a one-line paragraph such as "Book two was better." is not one.
    static func isPartLine(_ line: String) -> Bool {
        // A dash may join the number to its subtitle ("PART ONE—The Sea").
        let hasDash = line.unicodeScalars.contains { $0 == "—" || $0 == "–" }
        let spaced =
            hasDash ? line.replacingOccurrences(of: "—", with: " — ").replacingOccurrences(of: "–", with: " – ") : line
        let words = spaced.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if isOrdinalFirst(words, Self.partWords) { return true }
        guard line.count <= 60, words.count >= 2, Self.partWords.contains(words[0].lowercased()) else {
            return false
        }
        let numberWords = words[1].lowercased() == "the" && words.count >= 3 ? 2 : 1
        guard isChapterLine("chapter " + words.dropFirst().prefix(numberWords).joined(separator: " ")) else {
            return false
        }
        let rest = words.dropFirst(1 + numberWords)
        guard let next = rest.first else { return true }
        let number = words[numberWords]
        return number.hasSuffix(":") || number.hasSuffix(".") || [":", "-", "—", "–"].contains(String(next.prefix(1)))
            || rest.joined() == rest.joined().uppercased()
    }

    /// "EPILOGUE", "Second Epilogue", "FIRST EPILOGUE: 1813 - 20", "PREFACE", "APPENDIX A": a section
    /// of the book that is not numbered among its chapters. Capitals or title case, at most 60 characters;
    /// in capitals its title may run on ("INTRODUCTION AND ANALYSIS").
    static func isSectionLine(_ line: String) -> Bool {
        guard line.count <= 60 else { return false }
        let head = line.split(separator: ":", maxSplits: 1).first.map(String.init) ?? line
        var words = head.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
            $0.trimmingCharacters(in: .punctuationCharacters)
        }
        // In capitals a section's title may run on ("INTRODUCTION AND ANALYSIS", "PREFACE TO THE SECOND EDITION").
        let inCapitals = head == head.uppercased() && head.contains(where: \.isLetter)
        guard !words.isEmpty, words.count <= (inCapitals ? 8 : 4), words.allSatisfy({ $0.first?.isUppercase ?? false })
        else { return false }
        if words.count > 1, sectionOrdinals.contains(words[0].lowercased()) { words.removeFirst() }
        // "THE PREFACE", "AUTHOR'S PREFACE", "EDITOR'S NOTE", "PREFATORY NOTE".
        var owned = false
        if words.count > 1, sectionOwners.contains(words[0].lowercased()) {
            words.removeFirst()
            owned = true
        }
        let first = words[0].lowercased()
        // "NOTE TO THE THIRD EDITION", "NOTE ON THE TEXT": a note in capitals says what it is about.
        let isNote =
            (first == "note" || first == "notes")
            && (owned || (inCapitals && words.count >= 3 && ["to", "on"].contains(words[1].lowercased())))
        guard sectionWords.contains(first) || isNote else { return false }
        if inCapitals { return true }
        // "Appendix A", "APPENDIX II", "Epilogue 2": one designator at most.
        return words.count == 1
            || (words.count == 2
                && (words[1].count == 1 || words[1].allSatisfy { $0.isNumber || "IVXLCDM".contains($0) }))
    }

    /// "IV." or "XII" alone on a line: a chapter numbered without the word. A lone "I" (the pronoun,
    /// or a letter) is not one; "I." is.
    static func isRomanNumeralLine(_ line: String) -> Bool {
        let numeral = line.hasSuffix(".") ? line.dropLast() : Substring(line)
        guard (1...8).contains(numeral.count), numeral.allSatisfy({ "IVXLC".contains($0) }) else { return false }
        return line.hasSuffix(".") || numeral.count >= 2
    }

    /// "Chapter 12", "CHAPTER XII.", "Chapter the First", "Kapitel 3", "Глава 1", "第一章"…
    static func isChapterLine(_ line: String) -> Bool {
        if isCJKChapterLine(line) { return true }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if isOrdinalFirst(words, Self.chapterOrActWords) { return true }
        guard line.count <= 80, words.count >= 2, chapterWords.contains(words[0].lowercased()) else { return false }
        // "XXXVIII--CONCLUSION", "IV—THE FLIGHT": the number is what comes before a dash.
        let numberWord = words[1].split(omittingEmptySubsequences: false) { "-—–".contains($0) }[0]
        let number = numberWord.trimmingCharacters(in: .punctuationCharacters).lowercased()
        if !number.isEmpty, number.allSatisfy(\.isNumber) { return true }
        if !number.isEmpty, number.allSatisfy({ "ivxlcdm".contains($0) }) { return true }
        return ["last", "the"].contains(number) || HeadingCounter.wordValue(number) != nil
    }

    /// "FIRST PART", "Second Act", "THIRD BOOK.": an ordinal, then the word, and nothing after.
    /// The words that name a chapter in the languages ``isChapterLine(_:)`` reads.
    static let chapterWords: Set<String> = [
        "chapter", "chapitre", "kapitel", "capítulo", "capitulo", "capitolo", "hoofdstuk", "глава", "rozdział",
    ]
    /// What an ordinal before it makes a chapter line ("Second Act").
    static let chapterOrActWords: Set<String> = ["chapter", "act"]
    /// The words that name a part of a book.
    static let partWords: Set<String> = ["book", "part", "volume"]
    /// The ordinals that may come before a chapter's, part's or act's word ("Second Part").
    static let ordinalWords: Set<String> = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last",
    ]
    /// What ``isSectionLine(_:)`` takes: an ordinal, an owner, then the section's word.
    static let sectionOrdinals: Set<String> = ["first", "second", "third", "fourth", "fifth", "final", "last"]
    static let sectionOwners: Set<String> = [
        "the", "author's", "author’s", "authors'", "editor's", "editor’s", "translator's", "translator’s",
        "prefatory", "introductory",
    ]
    static let sectionWords: Set<String> = [
        "epilogue", "prologue", "preface", "introduction", "foreword", "afterword", "appendix", "postscript",
        "prelude", "finale", "envoi", "advertisement",
    ]

    static func isOrdinalFirst(_ words: [Substring], _ nouns: Set<String>) -> Bool {
        guard words.count == 2 else { return false }
        let noun = words[1].lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".:"))
        return ordinalWords.contains(words[0].lowercased()) && nouns.contains(noun)
            && words.allSatisfy { $0.first?.isUppercase ?? false }
    }

    /// "第一章", "第12回", "第三节": a Chinese or Japanese chapter line.
    static func isCJKChapterLine(_ line: String) -> Bool {
        guard line.unicodeScalars.first(where: { !$0.isWhiteSpace }) == "第" else { return false }
        let scalars = Array(line.trimmingCharacters(in: .whitespaces).unicodeScalars)
        guard scalars.count >= 3, scalars.count <= 40, scalars[0] == "第" else { return false }
        let numerals = Set("一二三四五六七八九十百千零〇两0123456789０１２３４５６７８９".unicodeScalars)
        var index = 1
        while index < scalars.count, numerals.contains(scalars[index]) { index += 1 }
        return index > 1 && index < scalars.count && "章回节節卷部話话".unicodeScalars.contains(scalars[index])
    }
}
