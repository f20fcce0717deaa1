/// Cuts documents into chapters and speakable items.
///
/// The source formats' readers (``PlainTextReader``, ``MarkdownReader``, ``ScriptReader``,
/// ``HTMLReader``, ``EPUBReader``) turn sources into blocks; the splitter only turns blocks into
/// items. Chapters start at level-1 and level-2 headings, or at the table of contents' entries in
/// an EPUB. A block longer than `maxCharacters` is cut at sentence boundaries, then at clause
/// punctuation, then between words, never inside one.
package struct Splitter: Sendable {
    package var settings: SplitSettings
    /// BCP 47 language of the text, which picks the sentence rules (abbreviations).
    package var language: String

    package init(settings: SplitSettings, language: String = "en") {
        self.settings = settings
        self.language = language
    }

    /// Splits plain-text, Markdown and script documents given as (path, format, text), in reading order.
    package func split(_ documents: [(path: String, format: SourceFile.Format, text: String)]) -> SplitResult {
        split(documents.map { SplitSource.text(path: $0.path, format: $0.format, text: $0.text) })
    }

    /// Splits sources in reading order.
    package func split(_ sources: [SplitSource]) -> SplitResult {
        var builder = Builder(settings: settings, language: language)
        for source in sources {
            switch source {
            case .document(let document):
                builder.add(document.documents, chaptersFromContents: document.chaptersFromContents)
            case .inline(let items, let title, let path):
                builder.add(items, title: title, path: path)
            }
        }
        return builder.finish()
    }

    struct Builder {
        let settings: SplitSettings
        let rules: SentenceRules
        var chapters: [Chapter] = []
        var items: [SpeakableItem] = []
        var idCounts: [String: Int] = [:]
        /// The part (``DocumentBlock/isPart``) the chapters are in, and whether text followed its heading.
        var part: String?
        var partHasOwnText = true
        /// Who spoke the last dialogue line in this chapter, for `whenSpeakerChanges` announcements.
        var lastSpeaker: String?

        init(settings: SplitSettings, language: String) {
            self.settings = settings
            self.rules = SentenceRules(language: language)
        }

        /// Structured documents: chapters at table-of-contents entries, or else at `h1`/`h2`.
        mutating func add(_ documents: [StructuredDocument], chaptersFromContents: Bool) {
            var startedChapter = false
            let parts = chaptersFromContents ? [] : Self.partHeadings(documents, byWords: !settings.headingsFromMarkup)
            for (documentIndex, document) in documents.enumerated() {
                for (blockIndex, var block) in document.blocks.enumerated() {
                    if parts.contains([documentIndex, blockIndex]) { block.isPart = true }
                    // Folding white space changes no word character: a block is checked before it is folded.
                    guard block.text.contains(where: Tokenizer.isWordScalar) else { continue }
                    var folded: String {
                        block.foldedText
                    }
                    if chaptersFromContents, block.partTitle != nil || block.chapterTitle != nil {
                        // A part and its first chapter may start at one block: the part first, then the chapter joins it.
                        if let part = block.partTitle { startChapter(heading: part, isPart: true, path: document.path) }
                        if let title = block.chapterTitle {
                            startChapter(heading: title, isPart: false, path: document.path)
                        }
                        startedChapter = true
                    } else if !chaptersFromContents, case .heading(let level) = block.role, level <= 2 {
                        // A reader may title the chapter more fully than its heading reads ("CHAPTER I"
                        // over its title line, a contents entry).
                        startChapter(heading: block.chapterTitle ?? folded, isPart: block.isPart, path: document.path)
                        startedChapter = true
                    } else if !startedChapter, chaptersFromContents, case .heading = block.role,
                        !(document.title.map { ContentsList.normalized($0).contains(ContentsList.normalized(folded)) }
                            ?? false)
                    {
                        // Text before the first contents entry under a heading of its own (a preface
                        // or a first story the contents leave out), not the book's title, is titled by it.
                        startChapter(titled: folded, path: document.path)
                        startedChapter = true
                    } else if !startedChapter {
                        startChapter(untitledFrom: document.path, title: document.title)
                        startedChapter = true
                    }
                    if case .heading = block.role {} else { partHasOwnText = true }
                    switch block.role {
                    case .heading:
                        appendItem(
                            kind: .heading, text: folded, path: document.path, sourceStart: block.origins.first ?? 0,
                            sourceEnd: (block.origins.last ?? 0) + 1, elementID: block.elementID)
                    case .paragraph:
                        emitBlock(block, path: document.path)
                    case .narration:
                        emitBlock(block, path: document.path, kind: .narration)
                    case .speech(let character):
                        emitBlock(block, path: document.path, kind: .dialogue, character: character)
                    }
                }
            }
        }

        /// The level-1 headings (Markdown `#`, HTML `h1`) that are parts: when at least two of them
        /// have level-2 headings under them, the book is in parts and its level-2 headings are its
        /// chapters ("# Book One" / "## Chapter 1"). One `#` above every chapter is the book's title,
        /// not a part. In a book in parts, every `#` is at the parts' level: a `# Prologue` or
        /// `# Epilogue` with text of its own is a section beside the parts (as in plain text), not a
        /// chapter of the part before it. A book whose headings are all at one level has parts
        /// where their words say so. Positions as [document, block].
        static func partHeadings(_ documents: [StructuredDocument], byWords: Bool = true) -> Set<[Int]> {
            var candidates: [[Int]] = []
            var levelOne: [[Int]] = []
            var current: [Int]?
            var holdsChapters = false
            for (documentIndex, document) in documents.enumerated() {
                for (blockIndex, block) in document.blocks.enumerated() {
                    guard case .heading(let level) = block.role, level <= 2 else { continue }
                    if level == 1 {
                        if let current, holdsChapters { candidates.append(current) }
                        current = [documentIndex, blockIndex]
                        levelOne.append([documentIndex, blockIndex])
                        holdsChapters = false
                    } else if current != nil {
                        holdsChapters = true
                    }
                }
            }
            if let current, holdsChapters { candidates.append(current) }
            if candidates.count >= 2 { return Set(levelOne) }
            guard byWords else { return [] }
            // Every heading at one level, as in HTML made from plain text (`<h2>BOOK ONE: 1805</h2>`,
            // `<h2>CHAPTER I</h2>`): parts and sections by their shape, as plain text finds them.
            var shaped: [[Int]: PlainTextReader.HeadingShape] = [:]
            for (documentIndex, document) in documents.enumerated() {
                for (blockIndex, block) in document.blocks.enumerated() {
                    guard case .heading(let level) = block.role, level <= 2,
                        let shape = PlainTextReader.headingShape([block.foldedText]), shape != .chapter
                    else { continue }
                    shaped[[documentIndex, blockIndex]] = shape
                }
            }
            return shaped.values.contains(.part) ? Set(shaped.keys) : []
        }

        /// A heading that starts a chapter. A part's heading starts one of its own, which its
        /// first chapter joins when no text comes between them; chapters under a part carry its
        /// title ("Book One — Chapter 1").
        mutating func startChapter(heading: String, isPart: Bool, path: String) {
            if isPart {
                part = Self.partTitle(heading)
                partHasOwnText = false
                startChapter(titled: part!, path: path)
                chapters[chapters.count - 1].part = part
            } else if let part {
                // A line or two under the part's heading (a dedication, an epigraph) opens its first
                // chapter rather than making a chapter of a few seconds.
                let partWords = items.reversed().prefix { $0.chapter == chapters.count }.reduce(0) {
                    $0 + ($1.kind == .heading ? 0 : $1.wordCount)
                }
                if !partHasOwnText || partWords < Self.shortPartWords, let last = chapters.indices.last,
                    chapters[last].title == part
                {
                    chapters[last].title = part + " — " + heading
                    partHasOwnText = true
                } else {
                    startChapter(titled: part + " — " + heading, path: path)
                    chapters[chapters.count - 1].part = part
                }
            } else {
                startChapter(titled: heading, path: path)
            }
        }

        /// Fewer words than this under a part's heading join its first chapter.
        static let shortPartWords = 30

        /// "BOOK ONE" → "Book One", "PART II" → "Part II": capitals kept only for Roman numerals.
        static func partTitle(_ heading: String) -> String { HeadingCase.titled(heading) }

        mutating func startChapter(titled title: String, path: String) {
            lastSpeaker = nil
            chapters.append(Chapter(ordinal: chapters.count + 1, title: title, sourcePath: path))
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
            SplitResult(chapters: Self.distinctlyTitled(Self.withoutLoneParts(chapters)), items: items)
        }

        /// A part that holds only a chapter of its own title (a prelude, a finale or a preface beside
        /// the parts) is no part: a listener's chapter list and an EPUB's navigation would show it
        /// twice, one inside the other.
        static func withoutLoneParts(_ chapters: [Chapter]) -> [Chapter] {
            var chapters = chapters
            for index in chapters.indices {
                guard let part = chapters[index].part, chapters[index].title == part else { continue }
                let sharedBefore = index > 0 && chapters[index - 1].part == part
                let sharedAfter = index + 1 < chapters.count && chapters[index + 1].part == part
                if !sharedBefore, !sharedAfter { chapters[index].part = nil }
            }
            return chapters
        }

        /// Chapters whose titles repeat an earlier one's get " (2)", " (3)" …: a player's chapter list
        /// and an EPUB's navigation tell chapters apart by title.
        static func distinctlyTitled(_ chapters: [Chapter]) -> [Chapter] {
            var seen: [String: Int] = [:]
            return chapters.map { chapter in
                var chapter = chapter
                let count = seen[chapter.title, default: 0] + 1
                seen[chapter.title] = count
                if count > 1 { chapter.title += " (\(count))" }
                return chapter
            }
        }

        // MARK: Items

        /// Emits a block's items: the block as a paragraph, or (`split.unit: "line"`) each of its
        /// lines, a dialogue block's speaker announced once.
        mutating func emitBlock(
            _ block: DocumentBlock, path: String, kind: ItemKind = .paragraph, character: String? = nil
        ) {
            guard settings.unit == .line else {
                emitText(
                    block.text, origin: block.origins, path: path, elementID: block.elementID, kind: kind,
                    character: character)
                return
            }
            var start = 0
            var announce = true
            for end in block.text.indices where block.text[end] == "\n" || end == block.text.count - 1 {
                let stop = block.text[end] == "\n" ? end : end + 1
                if block.text[start..<stop].contains(where: Tokenizer.isWordScalar) {
                    emitText(
                        Array(block.text[start..<stop]), origin: Array(block.origins[start..<stop]), path: path,
                        elementID: block.elementID,
                        kind: kind, character: character, announce: announce)
                    announce = false
                }
                start = end + 1
            }
        }

        /// Emits the paragraph items of text that still has its white space, e.g. a document block.
        mutating func emitText(
            _ raw: [Unicode.Scalar], origin rawOrigin: [Int], path: String, elementID: String?,
            kind: ItemKind = .paragraph,
            character: String? = nil, name: String? = nil, announce: Bool = true
        ) {
            let (text, origin) = Splitter.folded(raw, origins: rawOrigin)
            emitFolded(
                text, origin: origin, path: path, elementID: elementID, kind: kind, character: character, name: name,
                announce: announce)
        }

        /// Cuts folded paragraph text into items; `origin` gives each scalar's source offset.
        mutating func emitFolded(
            _ text: [Unicode.Scalar], origin: [Int], path: String, elementID: String?, kind: ItemKind = .paragraph,
            character: String? = nil, name: String? = nil, announce speaker: Bool = true
        ) {
            let pieces = cut(text).filter { text[$0].contains(where: Tokenizer.isWordScalar) }
            if speaker, kind == .dialogue, let character, !pieces.isEmpty {
                announce(character, path: path, at: origin[pieces[0].lowerBound], name: name)
            }
            for (index, range) in pieces.enumerated() {
                let itemText = String(scalars: text[range])
                // A long inline line cut in pieces: "greeting-1", "greeting-2", … so pack names stay unique.
                let pieceName = name.map { pieces.count == 1 ? $0 : "\($0)-\(index + 1)" }
                appendItem(
                    kind: kind, text: itemText, path: path,
                    sourceStart: origin[range.lowerBound], sourceEnd: origin[range.upperBound - 1] + 1,
                    elementID: elementID,
                    character: character, name: pieceName, wordCount: Tokenizer.wordCount(in: text[range]))
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
            appendItem(
                kind: .announcement, text: spoken, path: path, sourceStart: offset, sourceEnd: offset,
                name: name.map { "\($0).announcement" })
        }

        mutating func appendItem(
            kind: ItemKind, text: String, path: String, sourceStart: Int, sourceEnd: Int, elementID: String? = nil,
            character: String? = nil, name: String? = nil, wordCount: Int? = nil
        ) {
            let base = ItemIdentifier.base(kind: kind, text: text, character: character)
            let occurrence = idCounts[base, default: 0] + 1
            idCounts[base] = occurrence
            items.append(
                SpeakableItem(
                    id: occurrence == 1 ? base : "\(base)-\(occurrence)", kind: kind, chapter: max(chapters.count, 1),
                    ordinal: items.count + 1, text: text, sourcePath: path, sourceStart: sourceStart,
                    sourceEnd: sourceEnd,
                    wordCount: wordCount, elementID: elementID, character: character, name: name))
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
            guard settings.unit != .sentence else { return pieces }
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
                    if text[index - 1].properties.isWhitespace, clausePunctuation.contains(text[index - 2]) {
                        cutAt = index
                        break
                    }
                    index -= 1
                }
                if cutAt == nil {
                    index = window
                    while index > lower + 1 {
                        if text[index - 1].properties.isWhitespace {
                            cutAt = index
                            break
                        }
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
