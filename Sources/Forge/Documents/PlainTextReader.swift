import Foundation

/// Plain text: paragraphs separated by blank lines, hard-wrapped lines joined. A short paragraph set
/// apart by blank lines is a heading when it has a heading's shape (``HeadingShape``):
/// - a chapter: "Chapter 12", "CHAPTER XII.", "Chapter the First", "第十二章", a Roman numeral alone
///   ("IV."), or a chapter line whose title wraps onto a second short line;
/// - a part: "BOOK ONE", "BOOK FIVE: 1806 - 07", "PART THE FIRST", "Volume II";
/// - a section: "PREFACE", "INTRODUCTION", "PROLOGUE", "EPILOGUE", "FIRST EPILOGUE: 1813 - 20",
///   "APPENDIX A", "FOREWORD", "AFTERWORD".
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

    package init() {}

    package func read(_ text: String, path: String) -> StructuredDocument {
        let scalars = Array(text.unicodeScalars)
        var blocks: [DocumentBlock] = []
        var shapes: [HeadingShape?] = []
        var current: [Range<Int>] = []
        func flush() {
            guard !current.isEmpty else { return }
            let lines = current.count <= 2 ? current.map { String(String.UnicodeScalarView(scalars[$0])) } : []
            if let shape = Self.headingShape(lines) {
                blocks.append(current.count == 1
                    ? TextLines.heading(scalars, indices: Array(current[0]), level: 1)
                    : TextLines.paragraph(scalars, lines: current, role: .heading(level: 1)))
                shapes.append(shape)
            } else {
                blocks.append(TextLines.paragraph(scalars, lines: current))
                shapes.append(nil)
            }
            current = []
        }
        for line in TextLines.lines(scalars) {
            guard let trimmed = SentenceSegmenter.trim(scalars, line) else {
                flush()
                continue
            }
            current.append(trimmed)
        }
        flush()
        if shapes.contains(.part) {
            for index in blocks.indices {
                switch shapes[index] {
                case .part?, .section?: blocks[index].isPart = true
                case .chapter?: blocks[index].role = .heading(level: 2)
                case nil: break
                }
            }
        }
        return StructuredDocument(path: path, language: nil, title: nil, blocks: blocks)
    }

    /// The heading a paragraph of these lines is, if any: one line of a heading's shape, or a chapter
    /// line whose title wraps onto a second short line.
    static func headingShape(_ lines: [String]) -> HeadingShape? {
        switch lines.count {
        case 1:
            let line = lines[0]
            if isChapterLine(line) || isRomanNumeralLine(line) { return .chapter }
            if isPartLine(line) { return .part }
            if isSectionLine(line) { return .section }
            return nil
        case 2:
            // "CHAPTER 12. Of the Less Likely Pictures of Ships, and the True" / "Pictures of Harbour Scenes."
            guard lines[0].count <= 80, lines[1].count <= 60, isChapterLine(lines[0]),
                  lines[0].split(separator: " ").count >= 3 else { return nil }
            return .chapter
        default:
            return nil
        }
    }

    /// "BOOK ONE", "Part II", "VOLUME 3", "Book the First", "BOOK FIVE: 1806 - 07": a heading above
    /// chapters. After the number comes nothing, a subtitle after ":" or "." or a dash, or capitals
    /// ("PART THE FIRST"), so a one-line paragraph such as "Book two was better." is not one.
    static func isPartLine(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard line.count <= 60, words.count >= 2, ["book", "part", "volume"].contains(words[0].lowercased()) else { return false }
        let numberWords = words[1].lowercased() == "the" && words.count >= 3 ? 2 : 1
        guard isChapterLine("chapter " + words.dropFirst().prefix(numberWords).joined(separator: " ")) else { return false }
        let rest = words.dropFirst(1 + numberWords)
        guard let next = rest.first else { return true }
        let number = words[numberWords]
        return number.hasSuffix(":") || number.hasSuffix(".") || [":", "-", "—", "–"].contains(String(next.prefix(1)))
            || rest.joined() == rest.joined().uppercased()
    }

    /// "EPILOGUE", "Second Epilogue", "FIRST EPILOGUE: 1813 - 20", "PREFACE", "APPENDIX A": a section
    /// of the book that is not numbered among its chapters. Capitals or title case, at most 60 characters.
    static func isSectionLine(_ line: String) -> Bool {
        guard line.count <= 60 else { return false }
        let head = line.split(separator: ":", maxSplits: 1).first.map(String.init) ?? line
        var words = head.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.trimmingCharacters(in: .punctuationCharacters) }
        guard !words.isEmpty, words.count <= 4, words.allSatisfy({ $0.first?.isUppercase ?? false }) else { return false }
        let ordinals: Set<String> = ["first", "second", "third", "fourth", "fifth", "final", "last"]
        if words.count > 1, ordinals.contains(words[0].lowercased()) { words.removeFirst() }
        let sections: Set<String> = ["epilogue", "prologue", "preface", "introduction", "foreword", "afterword", "appendix", "postscript"]
        guard sections.contains(words[0].lowercased()) else { return false }
        // "Appendix A", "APPENDIX II", "Epilogue 2": one designator at most.
        return words.count == 1 || (words.count == 2 && (words[1].count == 1 || words[1].allSatisfy { $0.isNumber || "IVXLCDM".contains($0) }))
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
}
