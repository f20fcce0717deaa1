/// What the line-based readers (plain text, Markdown, scripts) share: cutting a text into lines,
/// paragraphs separated by blank lines, and blocks made of source lines.
enum TextLines {
    /// The lines of `scalars` (ended by LF or U+2029), without their ends.
    static func lines(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for (index, scalar) in scalars.enumerated() where scalar == "\n" || scalar == "\u{2029}" {
            result.append(start..<index)
            start = index + 1
        }
        if start < scalars.count { result.append(start..<scalars.count) }
        return result
    }

    /// A paragraph block of source lines: their scalars (but those `skip` says are markup), each line
    /// followed by a space standing at the line's end, so hard-wrapped lines join.
    static func paragraph(
        _ scalars: [Unicode.Scalar], lines: [Range<Int>], role: DocumentBlock.Role = .paragraph,
        skip: (Int) -> Bool = { _ in false }
    ) -> DocumentBlock {
        var text: [Unicode.Scalar] = []
        var origins: [Int] = []
        text.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        origins.reserveCapacity(text.capacity)
        for line in lines {
            for index in line where !skip(index) {
                text.append(scalars[index])
                origins.append(index)
            }
            // The line break is kept (folded to a space when the text is split into items) so
            // `split.unit: "line"` can still make each line an item.
            text.append("\n")
            origins.append(line.upperBound)
        }
        return DocumentBlock(role: role, text: text, origins: origins, elementID: nil)
    }

    /// A heading block of the scalars at `indices`.
    /// A line set in spaced capitals ("P R E F A C E", "C H A P T E R  I"): the offsets of its
    /// letters, with one space where words part (two spaces or more), so that it reads and is
    /// spoken as words. Nil for any other line.
    static func letterSpaced(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> [Int]? {
        var kept: [Int] = []
        var letters = 0
        var index = line.lowerBound
        while index < line.upperBound {
            let scalar = scalars[index]
            if scalar == " " {
                var end = index
                while end < line.upperBound, scalars[end] == " " { end += 1 }
                if end - index >= 2, !kept.isEmpty { kept.append(index) }
                index = end
                continue
            }
            guard
                scalar.properties.isUppercase || scalar.properties.numericType != nil
                    || ".:".contains(Character(scalar))
            else { return nil }
            // Each letter stands alone: the next is a space or the end.
            if index + 1 < line.upperBound, scalars[index + 1] != " " { return nil }
            if scalar.properties.isUppercase { letters += 1 }
            kept.append(index)
            index += 1
        }
        return letters >= 4 ? kept : nil
    }

    static func heading(_ scalars: [Unicode.Scalar], indices: [Int], level: Int) -> DocumentBlock {
        DocumentBlock(role: .heading(level: level), text: indices.map { scalars[$0] }, origins: indices, elementID: nil)
    }

    /// `# Title` … `###### Title` (a space after the marks; closing `#`s dropped): the level and the
    /// offsets of the title's scalars, those `hidden` says are markup left out.
    static func markdownHeading(_ scalars: [Unicode.Scalar], _ line: Range<Int>, hidden: (Int) -> Bool = { _ in false })
        -> (level: Int, title: [Int])?
    {
        var level = 0
        var index = line.lowerBound
        while index < line.upperBound, scalars[index] == "#" {
            level += 1
            index += 1
        }
        guard (1...6).contains(level), index < line.upperBound, scalars[index] == " " || scalars[index] == "\t" else {
            return nil
        }
        var title = (index..<line.upperBound).filter { !hidden($0) }
        while let last = title.last, scalars[last] == "#" { title.removeLast() }
        while let last = title.last, isBlank(scalars[last]) { title.removeLast() }
        let start = title.firstIndex { !isBlank(scalars[$0]) } ?? title.endIndex
        title.removeSubrange(..<start)
        return title.isEmpty ? nil : (level, title)
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
}
