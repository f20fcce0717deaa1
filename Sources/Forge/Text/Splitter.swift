/// Cuts source documents into chapters and speakable items.
///
/// Chapters start at "Chapter N" lines in plain text, at level-1 and level-2 headings in
/// Markdown and HTML, and at the table of contents' entries in an EPUB. In Markdown, emphasis
/// and links are reduced to their text, code blocks, comments, front matter and images are
/// skipped, and list items and block quotes are spoken as paragraphs; HTML blocks arrive already
/// read by ``HTMLReader``. Paragraphs are separated by blank lines; hard-wrapped lines are joined. A paragraph
/// longer than `maxCharacters` is cut at sentence boundaries, then at clause punctuation, then
/// between words, never inside one.
public struct Splitter: Sendable {
    public var settings: SplitSettings
    /// BCP 47 language of the text, which picks the sentence rules (abbreviations).
    public var language: String

    public init(settings: SplitSettings, language: String = "en") {
        self.settings = settings
        self.language = language
    }

    /// Splits plain-text and Markdown documents given as (path, format, text), in reading order.
    public func split(_ documents: [(path: String, format: SourceFile.Format, text: String)]) -> SplitResult {
        split(documents.map { SourceDocument.text(path: $0.path, format: $0.format, text: $0.text) })
    }

    /// Splits sources in reading order.
    public func split(_ sources: [SourceDocument]) -> SplitResult {
        var builder = Builder(settings: settings, language: language)
        for source in sources {
            switch source {
            case let .text(path, format, text):
                builder.add(text, path: path, format: format)
            case let .structured(documents, chaptersFromContents):
                builder.add(documents, chaptersFromContents: chaptersFromContents)
            case let .inline(items, title, path):
                builder.add(items, title: title, path: path)
            }
        }
        return builder.finish()
    }

    struct Block {
        enum Role {
            case paragraph
            case chapterHeading(title: String)
            case sectionHeading(title: String)
        }
        var role: Role
        var lines: [Range<Int>]
    }

    struct Builder {
        let settings: SplitSettings
        let rules: SentenceRules
        var chapters: [Chapter] = []
        var items: [SpeakableItem] = []
        var idCounts: [String: Int] = [:]
        /// Who spoke the last dialogue line in this chapter, for `whenSpeakerChanges` announcements.
        var lastSpeaker: String?

        init(settings: SplitSettings, language: String) {
            self.settings = settings
            self.rules = SentenceRules(language: language)
        }

        /// Structured documents: chapters at table-of-contents entries, or else at `h1`/`h2`.
        mutating func add(_ documents: [StructuredDocument], chaptersFromContents: Bool) {
            var startedChapter = false
            for document in documents {
                for block in document.blocks {
                    let folded = block.foldedText
                    guard folded.unicodeScalars.contains(where: Tokenizer.isWordScalar) else { continue }
                    if chaptersFromContents, let title = block.chapterTitle {
                        chapters.append(Chapter(ordinal: chapters.count + 1, title: title, sourcePath: document.path))
                        startedChapter = true
                    } else if !chaptersFromContents, case .heading(let level) = block.role, level <= 2 {
                        chapters.append(Chapter(ordinal: chapters.count + 1, title: folded, sourcePath: document.path))
                        startedChapter = true
                    } else if !startedChapter {
                        startChapter(untitledFrom: document.path, title: document.title)
                        startedChapter = true
                    }
                    if case .heading = block.role {
                        appendItem(
                            kind: .heading, text: folded, path: document.path, sourceStart: block.origins.first ?? 0,
                            sourceEnd: (block.origins.last ?? 0) + 1, elementID: block.elementID)
                    } else {
                        emitText(block.text, origin: block.origins, path: document.path, elementID: block.elementID)
                    }
                }
            }
        }

        mutating func add(_ text: String, path: String, format: SourceFile.Format) {
            if format == .script { return addScript(text, path: path) }
            let scalars = Array(text.unicodeScalars)
            let markup = format == .markdown ? MarkdownMarkup(scalars) : nil
            var startedChapterInSource = false
            for block in blocks(scalars, format: format, markup: markup) {
                switch block.role {
                case .chapterHeading(let title):
                    chapters.append(Chapter(ordinal: chapters.count + 1, title: title, sourcePath: path))
                    startedChapterInSource = true
                    emitHeading(title, block: block, path: path)
                case .sectionHeading(let title):
                    if !startedChapterInSource { startChapter(untitledFrom: path); startedChapterInSource = true }
                    emitHeading(title, block: block, path: path)
                case .paragraph:
                    // A block with no words (a rule, "* * *") neither speaks nor starts a chapter.
                    let hasWords = block.lines.contains { line in line.contains { Tokenizer.isWordScalar(scalars[$0]) && markup?.hidden[$0] != true } }
                    guard hasWords else { continue }
                    if !startedChapterInSource { startChapter(untitledFrom: path); startedChapterInSource = true }
                    emitParagraph(scalars, block: block, path: path, format: format, markup: markup)
                }
            }
        }

        mutating func startChapter(untitledFrom path: String, title: String? = nil) {
            lastSpeaker = nil
            if let title, !title.isEmpty {
                chapters.append(Chapter(ordinal: chapters.count + 1, title: title, sourcePath: path))
                return
            }
            if path == SourceFile.standardInputPath {
                chapters.append(Chapter(ordinal: chapters.count + 1, title: "Standard input", sourcePath: path))
                return
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let stem = name.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
            chapters.append(Chapter(ordinal: chapters.count + 1, title: stem.isEmpty ? name : stem, sourcePath: path))
        }

        func finish() -> SplitResult {
            // Chapters that ended up with no items (a heading-only source) are kept: they carry their heading item.
            SplitResult(chapters: chapters, items: items)
        }

        // MARK: Blocks

        func blocks(_ scalars: [Unicode.Scalar], format: SourceFile.Format, markup: MarkdownMarkup?) -> [Block] {
            var blocks: [Block] = []
            var current: [Range<Int>] = []
            var inFence = false
            var inFrontMatter = false
            var seenContent = false
            func flush() {
                if !current.isEmpty { blocks.append(Block(role: .paragraph, lines: current)) }
                current = []
            }
            for line in lines(scalars) {
                let trimmed = SentenceSegmenter.trim(scalars, line)
                if format == .markdown, let trimmed, isFrontMatterFence(scalars, trimmed), inFrontMatter || !seenContent {
                    // YAML front matter: from a "---" first line to the next "---".
                    inFrontMatter.toggle()
                    seenContent = true
                    continue
                }
                if inFrontMatter { continue }
                if trimmed != nil { seenContent = true }
                if format == .markdown, let trimmed, startsWithFence(scalars, trimmed) {
                    flush()
                    inFence.toggle()
                    continue
                }
                if inFence { continue }
                // A line of nothing but markup (a comment, a link definition, a bare ">") ends a paragraph.
                guard let trimmed, markup.map({ markup in trimmed.contains { !markup.hidden[$0] && !scalars[$0].properties.isWhitespace } }) ?? true else {
                    flush()
                    continue
                }
                if let markup, trimmed.contains(where: markup.listItemStarts.contains) {
                    // Each list item is spoken as its own paragraph.
                    flush()
                }
                if format == .markdown, let (level, title) = markdownHeading(scalars, trimmed, markup: markup) {
                    flush()
                    blocks.append(Block(role: level <= 2 ? .chapterHeading(title: title) : .sectionHeading(title: title), lines: [trimmed]))
                    continue
                }
                current.append(trimmed)
            }
            flush()
            if format == .text {
                // A one-line paragraph such as "Chapter 12" or "CHAPTER XII." starts a chapter.
                for index in blocks.indices where blocks[index].lines.count == 1 {
                    let text = String(String.UnicodeScalarView(scalars[blocks[index].lines[0]]))
                    if Self.isChapterLine(text) { blocks[index].role = .chapterHeading(title: text) }
                }
            }
            return blocks
        }

        func lines(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var start = 0
            for (index, scalar) in scalars.enumerated() where scalar == "\n" || scalar == "\u{2029}" {
                result.append(start..<index)
                start = index + 1
            }
            if start < scalars.count { result.append(start..<scalars.count) }
            return result
        }

        static func isChapterLine(_ line: String) -> Bool {
            if isCJKChapterLine(line) { return true }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let chapterWords: Set<String> = ["chapter", "chapitre", "kapitel", "capítulo", "capitulo", "capitolo", "hoofdstuk", "глава", "rozdział"]
            guard line.count <= 80, words.count >= 2, chapterWords.contains(words[0].lowercased()) else { return false }
            let number = words[1].trimmingCharacters(in: .punctuationCharacters).lowercased()
            if !number.isEmpty, number.allSatisfy(\.isNumber) { return true }
            if !number.isEmpty, number.allSatisfy({ "ivxlcdm".contains($0) }) { return true }
            let numberWords: Set<String> = [
                "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
                "first", "second", "third", "last", "the",
            ]
            return numberWords.contains(number)
        }

        /// "第一章", "第12回", "第三节": a Chinese or Japanese chapter line.
        static func isCJKChapterLine(_ line: String) -> Bool {
            let scalars = Array(line.trimmingCharacters(in: .whitespaces).unicodeScalars)
            guard scalars.count >= 3, scalars.count <= 40, scalars[0] == "第" else { return false }
            let numerals = Set("一二三四五六七八九十百千零〇两0123456789０１２３４５６７８９".unicodeScalars)
            var index = 1
            while index < scalars.count, numerals.contains(scalars[index]) { index += 1 }
            return index > 1 && index < scalars.count && "章回节節卷部話话".unicodeScalars.contains(scalars[index])
        }

        func isFrontMatterFence(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> Bool {
            line.count == 3 && scalars[line].allSatisfy { $0 == "-" }
        }

        func startsWithFence(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> Bool {
            guard line.count >= 3 else { return false }
            let head = scalars[line.lowerBound..<line.lowerBound + 3]
            return head.allSatisfy { $0 == "`" } || head.allSatisfy { $0 == "~" }
        }

        func markdownHeading(_ scalars: [Unicode.Scalar], _ line: Range<Int>, markup: MarkdownMarkup?) -> (Int, String)? {
            var level = 0
            var index = line.lowerBound
            while index < line.upperBound, scalars[index] == "#" { level += 1; index += 1 }
            guard (1...6).contains(level), index < line.upperBound, scalars[index] == " " || scalars[index] == "\t" else { return nil }
            var title = String(String.UnicodeScalarView((index..<line.upperBound).filter { markup?.hidden[$0] != true }.map { scalars[$0] }))
            while title.hasSuffix("#") { title.removeLast() }
            title = title.trimmingCharacters(in: .whitespaces)
            return title.isEmpty ? nil : (level, title)
        }

        // MARK: Items

        mutating func emitHeading(_ title: String, block: Block, path: String) {
            let range = block.lines[0]
            appendItem(kind: .heading, text: title, path: path, sourceStart: range.lowerBound, sourceEnd: range.upperBound)
        }

        mutating func emitParagraph(_ scalars: [Unicode.Scalar], block: Block, path: String, format: SourceFile.Format, markup: MarkdownMarkup?) {
            // The paragraph's text with white space folded, and for each of its scalars the source offset it came from.
            var text: [Unicode.Scalar] = []
            var origin: [Int] = []
            for line in block.lines {
                var index = line.lowerBound
                while index < line.upperBound {
                    let scalar = scalars[index]
                    if Self.isSpaceOrControl(scalar) {
                        if let last = text.last, last != " " {
                            text.append(" ")
                            origin.append(index)
                        }
                    } else if format == .markdown, markup?.hidden[index] == true || Self.isInlineMarkup(scalars, index) {
                        // markup (emphasis and code markers, link targets, tags, list and quote markers) is not spoken
                    } else {
                        text.append(scalar)
                        origin.append(index)
                    }
                    index += 1
                }
                if let last = text.last, last != " " {
                    text.append(" ")
                    origin.append(line.upperBound)
                }
            }
            emitFolded(text, origin: origin, path: path, elementID: nil)
        }

        /// Emits the paragraph items of text that still has its white space, e.g. a document block.
        mutating func emitText(
            _ raw: [Unicode.Scalar], origin rawOrigin: [Int], path: String, elementID: String?, kind: ItemKind = .paragraph,
            character: String? = nil, name: String? = nil
        ) {
            var text: [Unicode.Scalar] = []
            var origin: [Int] = []
            for (scalar, offset) in zip(raw, rawOrigin) {
                if Self.isSpaceOrControl(scalar) {
                    if let last = text.last, last != " " {
                        text.append(" ")
                        origin.append(offset)
                    }
                } else {
                    text.append(scalar)
                    origin.append(offset)
                }
            }
            emitFolded(text, origin: origin, path: path, elementID: elementID, kind: kind, character: character, name: name)
        }

        /// Cuts folded paragraph text into items; `origin` gives each scalar's source offset.
        mutating func emitFolded(
            _ text: [Unicode.Scalar], origin: [Int], path: String, elementID: String?, kind: ItemKind = .paragraph,
            character: String? = nil, name: String? = nil
        ) {
            let pieces = cut(text).filter { text[$0].contains(where: Tokenizer.isWordScalar) }
            if kind == .dialogue, let character, !pieces.isEmpty { announce(character, path: path, at: origin[pieces[0].lowerBound], name: name) }
            for (index, range) in pieces.enumerated() {
                let itemText = String(String.UnicodeScalarView(text[range]))
                // A long inline line cut in pieces: "greeting-1", "greeting-2", … so pack names stay unique.
                let pieceName = name.map { pieces.count == 1 ? $0 : "\($0)-\(index + 1)" }
                appendItem(
                    kind: kind, text: itemText, path: path,
                    sourceStart: origin[range.lowerBound], sourceEnd: origin[range.upperBound - 1] + 1, elementID: elementID,
                    character: character, name: pieceName)
            }
        }

        /// The narrator's announcement of who speaks next, when the recipe asks for one.
        mutating func announce(_ character: String, path: String, at offset: Int, name: String?) {
            defer { lastSpeaker = character.lowercased() }
            switch settings.announceCharacters {
            case .never: return
            case .whenSpeakerChanges where lastSpeaker == character.lowercased(): return
            case .whenSpeakerChanges, .always: break
            }
            // "HAMLET" as a script writes it is spoken as the name, not read out letter by letter.
            let spoken = character.uppercased() == character ? character.capitalized : character
            appendItem(kind: .announcement, text: spoken, path: path, sourceStart: offset, sourceEnd: offset, name: name.map { "\($0).announcement" })
        }

        static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.isASCII { return scalar.value <= 0x20 || scalar.value == 0x7F }
            return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
        }

        static func isInlineMarkup(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
            let scalar = scalars[index]
            if scalar == "*" || scalar == "`" { return true }
            if scalar == "_" {
                let before = index > 0 ? scalars[index - 1] : " "
                let after = index + 1 < scalars.count ? scalars[index + 1] : " "
                return !(Tokenizer.isWordScalar(before) && Tokenizer.isWordScalar(after))
            }
            return false
        }

        mutating func appendItem(
            kind: ItemKind, text: String, path: String, sourceStart: Int, sourceEnd: Int, elementID: String? = nil,
            character: String? = nil, name: String? = nil
        ) {
            let base = ItemIdentifier.base(kind: kind, text: text, character: character)
            let occurrence = idCounts[base, default: 0] + 1
            idCounts[base] = occurrence
            items.append(
                SpeakableItem(
                    id: occurrence == 1 ? base : "\(base)-\(occurrence)", kind: kind, chapter: max(chapters.count, 1),
                    ordinal: items.count + 1, text: text, sourcePath: path, sourceStart: sourceStart, sourceEnd: sourceEnd,
                    words: Tokenizer.words(in: text), elementID: elementID, character: character, name: name))
        }

        /// Item ranges of a paragraph: sentences packed up to `maxCharacters` (or one each for
        /// the sentence unit), with over-long sentences cut at clauses or between words.
        func cut(_ text: [Unicode.Scalar]) -> [Range<Int>] {
            let limit = settings.maxCharacters
            var pieces: [Range<Int>] = []
            for sentence in SentenceSegmenter.sentences(in: text, rules: rules) {
                if sentence.count <= limit {
                    pieces.append(sentence)
                } else {
                    pieces.append(contentsOf: cutLong(text, sentence, limit: limit))
                }
            }
            guard settings.unit == .paragraph else { return pieces }
            var packed: [Range<Int>] = []
            for piece in pieces {
                if let last = packed.last, piece.upperBound - last.lowerBound <= limit {
                    packed[packed.count - 1] = last.lowerBound..<piece.upperBound
                } else {
                    packed.append(piece)
                }
            }
            return packed
        }

        func cutLong(_ text: [Unicode.Scalar], _ range: Range<Int>, limit: Int) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var lower = range.lowerBound
            let clausePunctuation: Set<Unicode.Scalar> = [",", ";", ":", "\u{2014}", "\u{2013}", "\u{3001}"]
            while range.upperBound - lower > limit {
                let window = lower + limit
                var cutAt: Int?
                // Prefer clause punctuation in the second half of the window, then any space.
                var index = window
                while index > lower + limit / 2 {
                    if text[index - 1].properties.isWhitespace, clausePunctuation.contains(text[index - 2]) { cutAt = index; break }
                    index -= 1
                }
                if cutAt == nil {
                    index = window
                    while index > lower + 1 {
                        if text[index - 1].properties.isWhitespace { cutAt = index; break }
                        index -= 1
                    }
                }
                if cutAt == nil {
                    // No space at all (one enormous token, or unspaced script): cut between characters.
                    var hard = window
                    while hard > lower + 1, Tokenizer.isMark(text[hard]) { hard -= 1 }
                    cutAt = hard
                }
                if let piece = SentenceSegmenter.trim(text, lower..<cutAt!) { result.append(piece) }
                lower = cutAt!
            }
            if let piece = SentenceSegmenter.trim(text, lower..<range.upperBound) { result.append(piece) }
            return result
        }
    }
}
