import Foundation

/// A plain text's own table of contents, read as its chapter list: the entries under a "CONTENTS"
/// line — one line or two per entry ("CHAPTER I" over "Jonathan Harker's Journal"), with or without
/// page numbers and dotted leaders, numbered or not — each found again in the body, where its
/// chapter starts. The list itself is not spoken.
struct ContentsList {
    /// One entry: a number ("CHAPTER I", "I.", "Stave I"), a title, or both.
    struct Entry: Equatable {
        var label: String?
        var title: String?
        /// "BOOK THE FIRST", "Part II": a part above the chapters after it.
        var isPart: Bool
        /// The entry's line when it was one ("I. The Period"): the title as the book writes it.
        var line: String?

        /// How the chapter is titled: the entry's line, or its number and the title line under it
        /// joined ("Chapter I: Jonathan Harker's Journal").
        var displayTitle: String {
            if let line { return line.split(separator: " ").joined(separator: " ") }
            let label = label.map { Self.casedLabel($0) }
            switch (label, title) {
            case (let label?, let title?): return label + ": " + title
            case (let label?, nil): return label
            case (nil, let title?): return title
            case (nil, nil): return ""
            }
        }

        /// "CHAPTER I." → "Chapter I"; numerals keep their capitals.
        static func casedLabel(_ label: String) -> String {
            var trimmed = Substring(label)
            while let last = trimmed.last, ".:".contains(last) { trimmed = trimmed.dropLast() }
            return HeadingCase.titled(String(trimmed))
        }
    }

    var entries: [Entry]
    /// The lines (indices into the text's lines) the list takes, its "CONTENTS" line included.
    var lines: Range<Int>

    /// The most lines a contents list may run to, and how far into the text its title may stand.
    static let maximumLines = 4_000
    static let searchedLines = 1_500

    /// The contents list in the first lines of `body`, if the text has one.
    static func find(_ lines: [Range<Int>], _ scalars: [Unicode.Scalar], in body: Range<Int>) -> ContentsList? {
        func isIndented(_ index: Int) -> Bool {
            let line = lines[index]
            return line.count > 2 && (scalars[line.lowerBound] == "\t" || scalars[line.lowerBound + 1] == " ")
        }
        func text(_ index: Int) -> String {
            let line = lines[index]
            guard line.count <= 400 else { return String(repeating: "x", count: 401) }
            return String(scalars: scalars[line]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let searched = body.lowerBound..<min(body.upperBound, body.lowerBound + max(searchedLines, body.count / 10))
        guard let titleLine = searched.first(where: { isContentsTitle(text($0)) }) else {
            return untitled(in: searched, text)
        }
        var entryLines: [(text: String, line: Int, startsParagraph: Bool)] = []
        var blanks = 1
        var paragraphStart = 0
        var longLinesInParagraph = 0
        var end = titleLine + 1
        let limit = min(body.upperBound, titleLine + maximumLines)
        while end < limit {
            let line = text(end)
            if line.isEmpty {
                blanks += 1
                if blanks >= 3, entryLines.count >= 2 { break }
                end += 1
                continue
            }
            // The body starts where the first entry comes again, or its number does after a gap
            // ("I. THERE IS NO ONE LEFT" … "CHAPTER I"), unless a part's line comes just before.
            if let first = entryLines.first {
                if normalized(line) == normalized(first.text) { break }
                let firstChapter = entryLines.first { !isPartEntry($0.text) && splitLabel($0.text) != nil }
                if blanks >= 1, !isPartEntry(line), isSameSeries(line, as: firstChapter?.text),
                    let number = number(of: line).flatMap(value),
                    number == firstChapter.flatMap({ self.number(of: $0.text) }).flatMap(value),
                    let previous = entryLines.last, !isPartEntry(previous.text)
                {
                    break
                }
            }
            // A sentence of running text: the body has begun (an entry's line may end on a quote:
            // "CHAPTER XXIX. The Pic-nic--Huck on Injun Joe's Track--The “Revenge”").
            if line.count > 120
                || (isMostlyLowerCase(line) && line.split(separator: " ").count >= 4
                    && ".!?\"”".contains(line.last ?? " ") && strippingPageNumber(line) == line
                    && number(of: line) == nil && !isEntryBeforeNext(end, body.upperBound, text, after: entryLines))
            {
                break
            }
            let startsParagraph = blanks > 0
            if startsParagraph {
                paragraphStart = entryLines.count
                longLinesInParagraph = 0
            }
            blanks = 0
            if isPageColumnHeading(line) {
                end += 1
                continue
            }
            // Prose: a paragraph of three or more full lines without page numbers, set flush left and
            // mostly in lower case (contents are indented, or in capitals, or carry page numbers).
            if line.count >= 55, strippingPageNumber(line) == line, !isIndented(end), isMostlyLowerCase(line) {
                longLinesInParagraph += 1
            }
            if longLinesInParagraph >= 3 {
                entryLines.removeSubrange(paragraphStart...)
                break
            }
            entryLines.append((line, end, startsParagraph))
            end += 1
        }
        let entries = parse(entryLines)
        guard entries.count >= 2 else { return nil }
        let lastLine = entryLines.last.map { $0.line + 1 } ?? titleLine + 1
        return ContentsList(entries: entries, lines: titleLine..<lastLine)
    }

    /// A line that reads as a sentence ("EXTRACTS (Supplied by a Sub-Sub-Librarian).") is still an
    /// entry when the next line is the list's next number.
    static func isEntryBeforeNext(
        _ index: Int, _ end: Int, _ text: (Int) -> String,
        after entryLines: [(text: String, line: Int, startsParagraph: Bool)]
    ) -> Bool {
        guard let next = (index + 1..<min(end, index + 5)).first(where: { !text($0).isEmpty }),
            let nextNumber = number(of: text(next)).flatMap(value)
                ?? bareNumeral(text(next)).flatMap({ value($0.label) })
        else { return false }
        let lastNumber = entryLines.lazy.compactMap { number(of: $0.text).flatMap(value) }.last
        return nextNumber == (lastNumber ?? 0) + 1
    }

    /// A heading or label without its closing full stops ("BOOK II." → "BOOK II"), case kept.
    static func withoutFinalStops(_ text: String) -> String {
        String(text.reversed().drop { $0 == "." || $0 == " " }.reversed())
    }

    /// Whether a line numbers in the series of the list's first chapter: another series counting
    /// from one again is still the list ("Letter 1" … "Letter 4", then "Chapter 1"); a bare number
    /// is of any series.
    static func isSameSeries(_ line: String, as first: String?) -> Bool {
        func word(_ text: String) -> String? {
            text.split(separator: " ").first.flatMap {
                $0.allSatisfy(\.isLetter) && $0.count > 1 ? $0.lowercased() : nil
            }
        }
        guard let first, let listed = word(first), let word = word(line) else { return true }
        return listed == word
    }

    /// A list without a "CONTENTS" line: five lines or more in a row, each a number counting up
    /// from one and a title ("   I. A Scandal in Bohemia" … "XII. The Adventure of the Copper
    /// Beeches"), before anything else of the book's numbered so.
    static func untitled(in searched: Range<Int>, _ text: (Int) -> String) -> ContentsList? {
        var index = searched.lowerBound
        while index < searched.upperBound {
            var entries: [Entry] = []
            var line = index
            // The entry's number comes first: a line whose first word is not the next number is passed
            // over before the costlier reading of its label.
            func startsWithNext(_ line: String) -> Bool {
                let first = line.prefix { !" \t-—–".contains($0) }.trimmingCharacters(
                    in: CharacterSet(charactersIn: ".:"))
                return value(first) == entries.count + 1
            }
            while line < searched.upperBound, startsWithNext(text(line)), let split = splitLabel(text(line)),
                let title = split.title,
                split.label.split(separator: " ").count == 1,
                value(split.label.trimmingCharacters(in: CharacterSet(charactersIn: ".:"))) == entries.count + 1
            {
                entries.append(Entry(label: split.label, title: title, isPart: false, line: text(line)))
                line += 1
            }
            if entries.count >= 5 {
                // Unnumbered entries on the lines either side ("The Forethought" … "The Afterthought").
                func isTitle(_ candidate: Int) -> Bool {
                    let line = text(candidate)
                    return !line.isEmpty && line.count <= 60 && !".!?".contains(line.last ?? ".")
                        && splitLabel(line) == nil
                }
                var first = index
                while first > searched.lowerBound, isTitle(first - 1) {
                    first -= 1
                    entries.insert(Entry(label: nil, title: text(first), isPart: false), at: 0)
                }
                while line < searched.upperBound, isTitle(line) {
                    entries.append(Entry(label: nil, title: text(line), isPart: false))
                    line += 1
                }
                return ContentsList(entries: entries, lines: first..<line)
            }
            index = max(line, index + 1)
        }
        return nil
    }

    /// The number an entry starts with ("CHAPTER IV." and "IV. Martha" both "iv"), if it starts with one.
    static func number(of line: String) -> String? {
        guard let label = splitLabel(strippingPageNumber(line))?.label else { return nil }
        return label.split(separator: " ").last.map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ".:,")).lowercased()
        }
    }

    /// "Book the Second--the Golden Thread", "PART TWO": an entry above chapters.
    static func isPartEntry(_ line: String) -> Bool {
        PlainTextReader.isPartLine(line) || (splitLabel(line).map { PlainTextReader.isPartLine($0.label) } ?? false)
    }

    /// A number as a number: "IV", "4" and "Four" are 4.
    static func value(_ number: String) -> Int? {
        Int(number) ?? HeadingCounter.romanValue(number) ?? HeadingCounter.wordValue(number)
    }

    /// "CHAPTER I CHAPTER II CHAPTER III": several numbered entries on one line, or nil.
    static func labelRun(_ line: String) -> [String]? {
        let words = line.split(separator: " ")
        guard words.count >= 4, words.count % 2 == 0 else { return nil }
        let labels = stride(from: 0, to: words.count, by: 2).map { String(words[$0] + " " + words[$0 + 1]) }
        let word = words[0].lowercased()
        guard labels.allSatisfy({ $0.split(separator: " ")[0].lowercased() == word && isNumberLabel(String($0)) })
        else { return nil }
        return labels
    }

    /// Most of the line's letters are lower case, as running text's are.
    static func isMostlyLowerCase(_ line: String) -> Bool {
        let letters = line.filter(\.isLetter)
        return letters.filter(\.isLowercase).count * 2 > letters.count
    }

    /// Groups the list's lines into entries: a number line takes the title line under it; a line
    /// that goes on from a long one in the same paragraph continues its title.
    static func parse(_ lines: [(text: String, line: Int, startsParagraph: Bool)]) -> [Entry] {
        var entries: [Entry] = []
        var previousLength = 0
        var previousIsOpen = false
        var currentHasTitleLine = false
        let bareNumerals = bareNumeralSeries(lines.map { strippingPageNumber($0.text) })
        for (position, (text, _, startsParagraph)) in lines.enumerated() {
            let line = strippingPageNumber(text)
            // A line that ends on a colon or a dash without its page number goes on below
            // ("16. NARRATIVE CONTINUED BY THE DOCTOR:" over "HOW THE SHIP WAS ABANDONED . . 100").
            defer {
                previousLength = text.count
                previousIsOpen =
                    line == text.trimmingCharacters(in: .whitespaces) && line.last.map { ":,;—-".contains($0) } == true
            }
            guard !line.isEmpty else { continue }
            if let (label, title) = bareNumerals[position] {
                entries.append(Entry(label: label, title: title, isPart: false, line: label + ". " + title))
                currentHasTitleLine = true
            } else if let labels = labelRun(line) {
                entries += labels.map { Entry(label: $0, title: nil, isPart: false) }
                currentHasTitleLine = true
            } else if let (label, title) = splitLabel(line) {
                let isPart = PlainTextReader.isPartLine(label) || PlainTextReader.isPartLine(line)
                entries.append(Entry(label: label, title: title, isPart: isPart, line: title == nil ? nil : line))
                currentHasTitleLine = title != nil
            } else if var last = entries.last, last.label != nil, last.title == nil,
                PlainTextReader.headingShape([line]) == nil
            {
                last.title = line
                entries[entries.count - 1] = last
                currentHasTitleLine = true
            } else if var last = entries.last, currentHasTitleLine, !startsParagraph,
                previousLength >= 55 || previousIsOpen
            {
                last.title = (last.title ?? "") + " " + line
                last.line = last.line.map { $0 + " " + line }
                entries[entries.count - 1] = last
            } else {
                entries.append(Entry(label: nil, title: line, isPart: PlainTextReader.isPartLine(line)))
                currentHasTitleLine = true
            }
        }
        return entries
    }

    /// "I Introduction", "II The Machine", "III The Time Traveller Returns": Roman numerals without
    /// their full stops, read as numbers because they count up from one through the list (a lone
    /// "I Am Legend" is a title). The lines' positions in `lines`, each with its number and title.
    static func bareNumeralSeries(_ lines: [String]) -> [Int: (label: String, title: String)] {
        var series: [Int: (label: String, title: String)] = [:]
        for (position, line) in lines.enumerated() {
            guard let numeral = bareNumeral(line), value(numeral.label) == series.count + 1 else { continue }
            series[position] = numeral
        }
        return series.count >= 3 ? series : [:]
    }

    /// "IV Time Travelling", "4 Time Travelling": a number without its full stop, then a capitalized title.
    static func bareNumeral(_ line: String) -> (label: String, title: String)? {
        let words = line.split(separator: " ", maxSplits: 1)
        guard words.count == 2, words[0].count <= 8,
            words[0].allSatisfy({ "IVXLC".contains($0) }) || words[0].allSatisfy({ $0.isASCII && $0.isNumber }),
            words[1].first?.isUppercase == true
        else { return nil }
        return (String(words[0]), String(words[1]))
    }

    /// The blocks where the entries' chapters start, from `start` on, in the list's order: a block
    /// that reads as the entry's number and title, its number alone (the title under it) or its
    /// title alone. An entry not found is passed over; the next is looked for after the last found.
    func locate(in blocks: [DocumentBlock], from start: Int = 0) -> [(block: Int, entry: Entry)] {
        var positions: [String: [Int]] = [:]
        for index in blocks.indices.dropFirst(start) where blocks[index].text.count <= 300 {
            positions[Self.normalized(scalars: blocks[index].text), default: []].append(index)
        }
        // "ADVENTURE I. A SCANDAL IN BOHEMIA" for "I. A Scandal in Bohemia": the body's heading
        // puts a word before the listed number.
        var afterWord: [String: [Int]] = [:]
        for (key, indices) in positions {
            guard let space = key.firstIndex(of: " ") else { continue }
            let word = key[..<space]
            if word.count >= 3, word.allSatisfy(\.isLetter) {
                afterWord[String(key[key.index(after: space)...])] = indices
            }
        }
        func first(_ key: String?, after position: Int) -> Int? {
            guard let key, !key.isEmpty, let indices = positions[key] else { return nil }
            return indices.first { $0 > position }
        }
        func firstAfterWord(_ key: String?, after position: Int) -> Int? {
            guard let key, key.contains(" "), let indices = afterWord[key] else { return nil }
            return indices.first { $0 > position }
        }
        var found: [(block: Int, entry: Entry)] = []
        var position = start - 1
        for entry in entries {
            let label = entry.label.map(Self.normalized)
            let title = entry.title.map(Self.normalized)
            let both = label.flatMap { label in title.map { label + " " + $0 } }
            // A bare numeral ("I") is too common a paragraph to look for before the title; a titled
            // number ("CHAPTER I") comes before a title that may repeat ("Jonathan Harker's Journal").
            let isBare = entry.label.map { !$0.contains(" ") } ?? true
            // "CHAPTER I. THE PRISON-DOOR" listed, "I. THE PRISON DOOR" in the body.
            let numbered = entry.label.flatMap { Self.number(of: $0) }.flatMap { number in
                title.map { Self.normalized(number) + " " + $0 }
            }
            // A title misspelt in the contents or the body, set as a heading of its own.
            func misspelt(after position: Int) -> Int? {
                guard entry.label == nil, let listed = entry.title else { return nil }
                return blocks.indices.dropFirst(position + 1).first {
                    blocks[$0].text.count <= 60 && Self.isMisspelling(listed, of: blocks[$0].foldedText)
                }
            }
            guard
                let block = first(both, after: position) ?? first(numbered, after: position)
                    ?? firstAfterWord(both, after: position)
                    ?? (isBare ? first(title, after: position) : first(label, after: position))
                    ?? (isBare ? first(label, after: position) : first(title, after: position))
                    ?? misspelt(after: position)
            else { continue }
            // Found by its title under a number heading of the body's own ("CHAPTER I" over "THERE IS
            // NO ONE LEFT", listed as "I. THERE IS NO ONE LEFT"): the chapter starts at the number.
            var start = block
            let foundByNumber = label != nil && Self.normalized(blocks[block].foldedText) == label
            if !foundByNumber, block - 1 > position, blocks[block - 1].text.count <= 40 {
                let above = blocks[block - 1].foldedText
                // The entry's own number alone ("I" over "Of Our Spiritual Strivings"), even a letter's.
                let ownNumber =
                    Self.normalized(above) == label
                    || entry.label.flatMap { Self.number(of: $0) }.map { Self.normalized(above) == $0 } ?? false
                if Self.isNumberLabel(above) || PlainTextReader.isChapterLine(above) || ownNumber { start = block - 1 }
            }
            found.append((start, entry))
            position = block
        }
        return found
    }

    /// A contents entry and a heading that differ by a letter or two ("Couterparts" listed,
    /// "COUNTERPARTS" in the body): one title, the body's spelling the better witness.
    static func isMisspelling(_ entry: String, of heading: String) -> Bool {
        let (a, b) = (Array(normalized(entry)), Array(normalized(heading)))
        // A number differing by a letter is another chapter ("CHAPTER XVI", "CHAPTER XXVI").
        guard a != b, min(a.count, b.count) >= 6, abs(a.count - b.count) <= 2, splitLabel(entry) == nil,
            splitLabel(heading) == nil
        else { return false }
        return EditDistance.table(a, b)[a.count][b.count] <= (min(a.count, b.count) >= 12 ? 2 : 1)
    }

    /// "CHAPTER I", "I.", "Stave III:", "Chapter 12", "BOOK THE FIRST—Recalled to Life", "1. The
    /// Cyclone": the entry's number and what follows it (nil: the line is not numbered).
    static func splitLabel(_ line: String) -> (label: String, title: String?)? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return nil }
        // "Book the First—Recalled to Life": a part line whose subtitle follows a dash.
        for dash in ["—", "--", " - ", ": "] {
            if let range = line.range(of: dash) {
                let head = line[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                let tail = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
                // Only a chapter's number before the dash: "CHAPTER I. Y-o-u-u Tom--Aunt Polly
                // Decides" is titled after its number, its synopsis dashed.
                let headWords = head.split(separator: " ", omittingEmptySubsequences: true)
                let isBareChapter =
                    PlainTextReader.isChapterLine(head) && headWords.count <= 4 && !hasTitleWords(headWords)
                if PlainTextReader.isPartLine(head) || isBareChapter || isNumberLabel(head) {
                    return (head, tail.isEmpty ? nil : tail)
                }
            }
        }
        if isNumberLabel(line) || (words.count <= 4 && PlainTextReader.isChapterLine(line) && !hasTitleWords(words)) {
            return (line, nil)
        }
        // A numeral set apart by a wide gap: "I  TREATS OF THE PLACE WHERE OLIVER TWIST WAS BORN".
        if let gap = line.range(of: "  "), line[..<gap.lowerBound].split(separator: " ").count <= 2,
            !line[..<gap.lowerBound].isEmpty,
            // A word set apart needs a wider gap than two spaces after a sentence ("BEFORE.  AND IN WHICH").
            isNumberLabel(String(line[..<gap.lowerBound]))
                || line[..<gap.lowerBound].allSatisfy({ "IVXLCDM".contains($0) })
                || line[gap.lowerBound...].hasPrefix("   ")
        {
            let title = line[gap.upperBound...].trimmingCharacters(in: .whitespaces)
            if !title.isEmpty { return (String(line[..<gap.lowerBound]), title) }
        }
        // A word and a number, then the title: "CHAPTER I. Down the Rabbit-Hole", "Chapter 1 PETER BREAKS THROUGH".
        for count in [2, 1] where words.count > count {
            let head = words.prefix(count).joined(separator: " ")
            let headCore = head.trimmingCharacters(in: CharacterSet(charactersIn: ".:,"))
            guard
                isNumberLabel(headCore) || isNumberLabel(head)
                    || (count == 2 && PlainTextReader.isChapterLine(headCore))
            else { continue }
            // A bare numeral needs its full stop ("I. The Period", not "I went").
            if count == 1, !(head.hasSuffix(".") || head.hasSuffix(":")) { continue }
            let title = words.dropFirst(count).joined(separator: " ")
            return (headCore, title)
        }
        return nil
    }

    /// "I", "XII.", "12", "Stave I", "LETTER 4", "Chapter the First": a number with at most one word before it.
    static func isNumberLabel(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        guard (1...2).contains(words.count) else {
            // "Chapter the First"; "Chapter 1 Storm" is a number and a title.
            return words.count == 3 && words[1].lowercased() == "the" && PlainTextReader.isChapterLine(text)
        }
        let number = words.last!.trimmingCharacters(in: CharacterSet(charactersIn: ".:,"))
        let isNumeral =
            (!number.isEmpty && number.count <= 4 && number.allSatisfy(\.isNumber))
            || (!number.isEmpty && number.count <= 8 && number.allSatisfy { "IVXLCDM".contains($0) })
            || (number == number.uppercased() || number.first?.isUppercase == true)
                && HeadingCounter.wordValue(number) != nil
        guard isNumeral else { return false }
        if words.count == 1 { return number.count > 1 || text.hasSuffix(".") || number.allSatisfy(\.isNumber) }
        return words[0].first?.isUppercase ?? false
    }

    /// Title words after a chapter line's number ("Chapter 1 The Storm" has them; "Chapter the First" not).
    static func hasTitleWords(_ words: [Substring]) -> Bool {
        words.count > 2 && words[1].lowercased() != "the"
    }

    /// "Contents", "CONTENTS.", "Table of Contents", "CONTENTS:".
    static func isContentsTitle(_ line: String) -> Bool {
        PlainTextReader.isContentsTitle(Array(line.unicodeScalars))
    }

    /// A column heading over page numbers: "Page", "PAGE", "CHAPTER    PAGE".
    static func isPageColumnHeading(_ line: String) -> Bool {
        let words = line.lowercased().split(separator: " ")
        return !words.isEmpty && words.count <= 2 && words.last.map { $0.hasPrefix("page") || $0 == "p." } == true
    }

    /// The line without its page number: "Jonathan Harker's Journal     1" and "The Period ....... 3"
    /// lose it; "Chapter 12" keeps its number.
    static func strippingPageNumber(_ line: String) -> String {
        var scalars = Array(line.unicodeScalars)
        var end = scalars.count
        while end > 0, CharacterSet.decimalDigits.contains(scalars[end - 1]) { end -= 1 }
        var numberStart = end
        if end == scalars.count {
            // A Roman page number counts only after a leader or a wide gap.
            while numberStart > 0, "ivxlcdm".unicodeScalars.contains(scalars[numberStart - 1]) { numberStart -= 1 }
            guard numberStart < scalars.count else { return line }
        }
        let digits = end < scalars.count
        let numberBegin = digits ? end : numberStart
        var leaderStart = numberBegin
        while leaderStart > 0, " .·…_\t".unicodeScalars.contains(scalars[leaderStart - 1]) { leaderStart -= 1 }
        let leader = scalars[leaderStart..<numberBegin]
        let isLeader = leader.count >= 2 || leader.contains(where: { $0 == "." || $0 == "…" || $0 == "_" })
        guard leaderStart > 0, !leader.isEmpty else { return line }
        let head = String(String.UnicodeScalarView(scalars[..<leaderStart]))
        if !isLeader {
            // One space before digits: a page number only after a title, not after a label word.
            guard digits, head.split(separator: " ").count >= 2, !PlainTextReader.isChapterLine(line) else {
                return line
            }
        }
        scalars.removeSubrange(leaderStart...)
        return String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
    }

    /// Lower case, letters and digits only, one space between words: how an entry and a heading
    /// are compared ("Jonathan Harker's Journal" and "JONATHAN HARKER’S JOURNAL." are the same).
    static func normalized(_ text: String) -> String {
        normalized(scalars: text.unicodeScalars)
    }

    /// ``normalized(_:)`` of scalars, without making them a string first; built as UTF-8 bytes,
    /// as a body's every short paragraph is normalized to be looked up.
    static func normalized(scalars: some Sequence<Unicode.Scalar>) -> String {
        var result: [UInt8] = []
        var pendingSpace = false
        for scalar in scalars {
            // ASCII, most of every English book, without a String made per letter to lowercase it.
            if scalar.isASCII {
                let value = UInt8(scalar.value)
                let isUpper = (0x41...0x5A).contains(value)
                if isUpper || (0x61...0x7A).contains(value) || (0x30...0x39).contains(value) {
                    if pendingSpace, !result.isEmpty { result.append(0x20) }
                    pendingSpace = false
                    result.append(value | (isUpper ? 0x20 : 0))
                } else if scalar != "'" && scalar != "_" {
                    pendingSpace = true
                }
                continue
            }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingSpace, !result.isEmpty { result.append(0x20) }
                pendingSpace = false
                result.append(contentsOf: String(scalar).lowercased().utf8)
            } else if scalar == "’" {
                continue
            } else {
                pendingSpace = true
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
