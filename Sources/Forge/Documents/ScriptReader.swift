import Foundation

/// A script: `NAME: line` starts a character's speech (lines after it continue it until a blank
/// line), text in parentheses or brackets (stage directions and asides, even across lines) is not
/// spoken, other text is narration, `#`/`##` lines and `ACT …` lines are chapter headings (level 1)
/// and `###` or `SCENE …` lines section headings (level 3).
package struct ScriptReader: DocumentReader {
    package init() {}

    /// What the lines gathered so far are: a character's speech, or narration.
    private struct Passage {
        var character: String?
        var text: [Unicode.Scalar] = []
        var origins: [Int] = []
    }

    package func read(_ text: String, path: String) -> StructuredDocument {
        let scalars = Array(text.unicodeScalars)
        var blocks: [DocumentBlock] = []
        var passage: Passage?
        // Parentheses open across lines ("(Enter HAMLET\nand OPHELIA.)") until they close or a blank line.
        var depth = 0

        func flush() {
            guard let current = passage else { return }
            passage = nil
            blocks.append(
                DocumentBlock(
                    role: current.character.map { .speech(character: $0) } ?? .narration, text: current.text,
                    origins: current.origins, elementID: nil))
        }
        /// Adds a line's words to the passage (after the last line's break), leaving out
        /// what is in parentheses or brackets.
        func append(_ range: Range<Int>, startNew: Bool) {
            for index in range {
                let scalar = scalars[index]
                if scalar == "(" || scalar == "[" {
                    depth += 1
                    continue
                }
                if depth > 0 {
                    if scalar == ")" || scalar == "]" { depth -= 1 }
                    continue
                }
                if passage == nil { passage = Passage(character: nil) }
                passage!.text.append(scalar)
                passage!.origins.append(index)
            }
            if passage != nil || startNew {
                if passage == nil { passage = Passage(character: nil) }
                // A line break, folded to a space unless `split.unit: "line"` makes each line an item.
                passage!.text.append("\n")
                passage!.origins.append(range.upperBound)
            }
        }

        for line in TextLines.lines(scalars) {
            guard let trimmed = SentenceSegmenter.trim(scalars, line) else {
                flush()
                depth = 0
                continue
            }
            if depth == 0, let (level, title) = Self.heading(scalars, trimmed) {
                flush()
                blocks.append(TextLines.heading(scalars, indices: title, level: level))
                continue
            }
            if depth > 0 || scalars[trimmed.lowerBound] == "(" || scalars[trimmed.lowerBound] == "[" {
                // A stage direction: nothing on the line before its close is spoken, and it names no speaker.
                append(trimmed, startNew: false)
                continue
            }
            var speechStart = trimmed.lowerBound
            if let (name, after) = Self.speaker(scalars, trimmed) {
                flush()
                passage = Passage(character: name)
                speechStart = after
            }
            append(speechStart..<trimmed.upperBound, startNew: true)
        }
        flush()
        return StructuredDocument(path: path, language: nil, title: nil, blocks: blocks)
    }

    /// A heading line: its level (1 starts a chapter) and the offsets of its title.
    private static func heading(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> (Int, [Int])? {
        if let (level, title) = TextLines.markdownHeading(scalars, line) { return (level <= 2 ? 1 : 3, title) }
        let text = String(scalars: scalars[line])
        return sceneMarker(text).map { ($0 == .act ? 1 : 3, Array(line)) }
    }

    private enum SceneMarker { case act, scene }

    /// "ACT I", "Act 2", "SCENE III. A room in the castle.": the divisions of a play.
    private static func sceneMarker(_ line: String) -> SceneMarker? {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, line.count <= 80 else { return nil }
        let number = words[1].trimmingCharacters(in: .punctuationCharacters).lowercased()
        let isNumber =
            !number.isEmpty && (number.allSatisfy(\.isNumber) || number.allSatisfy { "ivxlcdm".contains($0) })
        guard isNumber else { return nil }
        switch words[0].lowercased() {
        case "act": return .act
        case "scene": return .scene
        default: return nil
        }
    }

    /// The speaker of a `NAME: text` line and where the speech starts: a name of at most four
    /// words of letters (digits, `.`, `'`, `-` allowed after the first letter), before a colon
    /// within the first 40 characters.
    private static func speaker(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> (String, Int)? {
        let limit = min(line.upperBound, line.lowerBound + 41)
        guard let colon = (line.lowerBound..<limit).first(where: { scalars[$0] == ":" }), colon > line.lowerBound else {
            return nil
        }
        let name = String(scalars: scalars[line.lowerBound..<colon]).trimmingCharacters(in: .whitespaces)
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic,
            name.split(separator: " ").count <= 4,
            name.unicodeScalars.allSatisfy({
                $0.properties.isAlphabetic || $0.properties.numericType != nil
                    || " .'-\u{2019}".unicodeScalars.contains($0)
            })
        else { return nil }
        // "Note: the time is 3:00" has a speaker-like start only if the name is a proper name or shouted; ordinary
        // lower-case words before a colon are narration.
        guard first.properties.isUppercase else { return nil }
        return (name, colon + 1)
    }
}
