extension Splitter.Builder {
    /// What the script lines gathered so far are: a character's speech, or narration.
    private struct Passage {
        var character: String?
        var text: [Unicode.Scalar] = []
        var origin: [Int] = []
    }

    /// Splits a script: `NAME: line` starts a character's speech (lines after it continue it until a
    /// blank line), text in parentheses or brackets (stage directions and asides, even across
    /// lines) is not spoken, other text is narration, `#`/`##` lines and `ACT …` lines start
    /// chapters and `###` or `SCENE …` lines are headings.
    mutating func addScript(_ text: String, path: String) {
        let scalars = Array(text.unicodeScalars)
        var startedChapter = false
        var passage: Passage?
        // Parentheses open across lines ("(Enter HAMLET\nand OPHELIA.)") until they close or a blank line.
        var depth = 0

        func ensureChapter(_ builder: inout Self) {
            if !startedChapter { builder.startChapter(untitledFrom: path); startedChapter = true }
        }
        func flush(_ builder: inout Self) {
            guard let current = passage else { return }
            passage = nil
            guard current.text.contains(where: Tokenizer.isWordScalar) else { return }
            ensureChapter(&builder)
            builder.emitText(
                current.text, origin: current.origin, path: path, elementID: nil,
                kind: current.character == nil ? .narration : .dialogue, character: current.character)
        }

        for line in lines(scalars) {
            guard let trimmed = SentenceSegmenter.trim(scalars, line) else {
                flush(&self)
                depth = 0
                continue
            }
            let lineText = String(String.UnicodeScalarView(scalars[trimmed]))
            if depth == 0, let (title, startsChapter) = Self.heading(lineText, scalars, trimmed, builder: self) {
                flush(&self)
                if startsChapter {
                    chapters.append(Chapter(ordinal: chapters.count + 1, title: title, sourcePath: path))
                    lastSpeaker = nil
                    startedChapter = true
                } else {
                    ensureChapter(&self)
                }
                appendItem(kind: .heading, text: title, path: path, sourceStart: trimmed.lowerBound, sourceEnd: trimmed.upperBound)
                continue
            }
            if depth > 0 || scalars[trimmed.lowerBound] == "(" || scalars[trimmed.lowerBound] == "[" {
                // A stage direction: nothing on the line before its close is spoken, and it names no speaker.
                append(trimmed.lowerBound..<trimmed.upperBound, to: &passage, depth: &depth, startNew: false)
                continue
            }
            var speechStart = trimmed.lowerBound
            if let (name, after) = Self.speaker(scalars, trimmed) {
                flush(&self)
                passage = Passage(character: name)
                speechStart = after
            }
            append(speechStart..<trimmed.upperBound, to: &passage, depth: &depth, startNew: true)
        }
        flush(&self)

        /// Adds a line's words to the passage (joined to the last line by a space), leaving out
        /// what is in parentheses or brackets.
        func append(_ range: Range<Int>, to passage: inout Passage?, depth: inout Int, startNew: Bool) {
            for index in range {
                let scalar = scalars[index]
                if scalar == "(" || scalar == "[" { depth += 1; continue }
                if depth > 0 {
                    if scalar == ")" || scalar == "]" { depth -= 1 }
                    continue
                }
                if passage == nil { passage = Passage(character: nil) }
                passage!.text.append(scalar)
                passage!.origin.append(index)
            }
            if passage != nil || startNew {
                if passage == nil { passage = Passage(character: nil) }
                passage!.text.append(" ")
                passage!.origin.append(range.upperBound)
            }
        }
    }

    private enum SceneMarker { case act, scene }

    /// A heading line and whether it starts a chapter: `#`/`##` and `ACT …` do, `###` and `SCENE …` do not.
    private static func heading(_ line: String, _ scalars: [Unicode.Scalar], _ range: Range<Int>, builder: Self) -> (String, Bool)? {
        if let (level, title) = builder.markdownHeading(scalars, range, markup: nil) { return (title, level <= 2) }
        return sceneMarker(line).map { (line, $0 == .act) }
    }

    /// "ACT I", "Act 2", "SCENE III. A room in the castle.": the divisions of a play.
    private static func sceneMarker(_ line: String) -> SceneMarker? {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, line.count <= 80 else { return nil }
        let number = words[1].trimmingCharacters(in: .punctuationCharacters).lowercased()
        let isNumber = !number.isEmpty && (number.allSatisfy(\.isNumber) || number.allSatisfy { "ivxlcdm".contains($0) })
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
        guard let colon = (line.lowerBound..<limit).first(where: { scalars[$0] == ":" }), colon > line.lowerBound else { return nil }
        let name = String(String.UnicodeScalarView(scalars[line.lowerBound..<colon])).trimmingCharacters(in: .whitespaces)
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic,
              name.split(separator: " ").count <= 4,
              name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || " .'-\u{2019}".unicodeScalars.contains($0) })
        else { return nil }
        // "Note: the time is 3:00" has a speaker-like start only if the name is a proper name or shouted; ordinary
        // lower-case words before a colon are narration.
        guard first.properties.isUppercase else { return nil }
        return (name, colon + 1)
    }
}
