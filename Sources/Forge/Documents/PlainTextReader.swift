import Foundation

/// Plain text: paragraphs separated by blank lines, hard-wrapped lines joined; a one-line
/// paragraph such as "Chapter 12", "CHAPTER XII." or "第十二章" is a chapter heading (level 1).
/// In a book with parts — one-line "BOOK ONE", "PART II", "Volume the First" paragraphs — the
/// parts are level-1 headings and the chapters level 2.
package struct PlainTextReader: DocumentReader {
    package init() {}

    package func read(_ text: String, path: String) -> StructuredDocument {
        let scalars = Array(text.unicodeScalars)
        var blocks: [DocumentBlock] = []
        var current: [Range<Int>] = []
        var partIndexes: [Int] = []
        func flush() {
            guard !current.isEmpty else { return }
            let line = current.count == 1 ? String(String.UnicodeScalarView(scalars[current[0]])) : ""
            if current.count == 1, Self.isChapterLine(line) {
                blocks.append(TextLines.heading(scalars, indices: Array(current[0]), level: 1))
            } else if current.count == 1, Self.isPartLine(line) {
                var part = TextLines.heading(scalars, indices: Array(current[0]), level: 1)
                part.isPart = true
                partIndexes.append(blocks.count)
                blocks.append(part)
            } else {
                blocks.append(TextLines.paragraph(scalars, lines: current))
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
        if !partIndexes.isEmpty {
            for index in blocks.indices where blocks[index].role == .heading(level: 1) && !blocks[index].isPart {
                blocks[index].role = .heading(level: 2)
            }
        }
        return StructuredDocument(path: path, language: nil, title: nil, blocks: blocks)
    }

    /// "BOOK ONE", "Part II", "VOLUME 3", "Book the First": a heading above chapters.
    static func isPartLine(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard line.count <= 40, (2...3).contains(words.count), ["book", "part", "volume"].contains(words[0].lowercased()) else { return false }
        return isChapterLine("chapter " + words.dropFirst().joined(separator: " "))
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
