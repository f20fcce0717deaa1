import Foundation

/// A pronunciation lexicon: words mapped to a respelling ("Darcy = DAR-see") or to espeak-ng
/// phonemes ("Bingley = [[b'INli]]"), applied to an item's text before synthesis and alignment.
///
/// Words match whole and case-insensitively (typographic apostrophes as plain ones). An item's
/// audio key holds its text as spoken, so it changes only when an entry for one of its words does.
package struct Lexicon: Sendable, Equatable {
    /// What a word is replaced with.
    package enum Pronunciation: Sendable, Equatable {
        /// Other letters to read, e.g. "DAR-see".
        case respelling(String)
        /// espeak-ng phoneme mnemonics (Kirshenbaum), e.g. "b'INli".
        case phonemes(String)
    }

    /// Entries by lower-cased word.
    package private(set) var entries: [String: Pronunciation]

    package init(entries: [String: Pronunciation] = [:]) {
        self.entries = Dictionary(uniqueKeysWithValues: entries.map { (Self.key($0.key), $0.value) })
    }

    package var isEmpty: Bool { entries.isEmpty }

    /// The lookup form of a word.
    static func key(_ word: String) -> String {
        word.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
    }

    /// Reads a lexicon file: one `word = respelling` or `word = [[phonemes]]` per line; `#` starts
    /// a comment; blank lines are ignored.
    package static func read(_ url: URL) throws(LexiconError) -> Lexicon {
        // A FIFO or a device would block or never end: only a regular file is read.
        if let kind = FileKind.nonRegular(atPath: url.path) {
            throw .unreadable(file: url.path, reason: "it is \(kind), not a regular file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(
                file: url.path,
                reason: FileManager.default.fileExists(atPath: url.path)
                    ? "permission denied or unreadable" : "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(file: url.path, reason: "it is not UTF-8 text")
        }
        return try parse(text, file: url.path)
    }

    package static func parse(_ text: String, file: String) throws(LexiconError) -> Lexicon {
        var entries: [String: Pronunciation] = [:]
        var lines: [String: Int] = [:]
        for (number, raw) in text.components(separatedBy: "\n").enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !line.isEmpty else { continue }
            let lineNumber = number + 1
            guard let equals = line.firstIndex(of: "=") else {
                throw .malformedLine(
                    file: file, line: lineNumber, text: line,
                    reason: "there is no \"=\" between the word and its pronunciation")
            }
            let word = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let words = Tokenizer.words(in: word)
            guard words.count == 1, words[0].text == word else {
                throw .malformedLine(
                    file: file, line: lineNumber, text: line,
                    reason: "\"\(word)\" is not a single word; entries replace one word each")
            }
            guard !value.isEmpty else {
                throw .malformedLine(file: file, line: lineNumber, text: line, reason: "the pronunciation is empty")
            }
            let pronunciation: Pronunciation
            if value.hasPrefix("[[") {
                guard value.hasSuffix("]]"), value.count > 4 else {
                    throw .malformedLine(
                        file: file, line: lineNumber, text: line,
                        reason: "phonemes are written [[like_this]], with both brackets")
                }
                let phonemes = String(value.dropFirst(2).dropLast(2))
                guard !phonemes.contains("[") && !phonemes.contains("]") else {
                    throw .malformedLine(
                        file: file, line: lineNumber, text: line, reason: "phonemes cannot contain brackets")
                }
                pronunciation = .phonemes(phonemes)
            } else {
                guard Tokenizer.words(in: value).count > 0, !value.contains("[[") else {
                    throw .malformedLine(
                        file: file, line: lineNumber, text: line, reason: "a respelling needs letters to read")
                }
                pronunciation = .respelling(value)
            }
            let key = Self.key(word)
            if let first = lines[key] {
                throw .duplicate(file: file, word: word, firstLine: first, line: lineNumber)
            }
            lines[key] = lineNumber
            entries[key] = pronunciation
        }
        return Lexicon(entries: entries)
    }

    /// An item's text as it is spoken: each word with an entry replaced. Without `phonemes` (an
    /// engine other than espeak-ng, which would read the brackets aloud) phoneme entries are left out.
    package func render(_ text: String, phonemes: Bool = true) -> LexiconRendering {
        let entries = phonemes ? entries : entries.filter { if case .respelling = $0.value { true } else { false } }
        // No lexicon (most books): the text as it is, its words found only if asked for.
        guard !entries.isEmpty else { return LexiconRendering(unchanged: text) }
        let words = Tokenizer.words(in: text)
        guard words.contains(where: { entries[Self.key($0.text)] != nil }) else {
            return LexiconRendering(original: text, spoken: text, words: words, usesPhonemes: false)
        }
        let scalars = Array(text.unicodeScalars)
        var spoken: [Unicode.Scalar] = []
        var spokenWords: [WordToken] = []
        var usesPhonemes = false
        var cursor = 0
        for word in words {
            spoken.append(contentsOf: scalars[cursor..<word.start])
            let start = spoken.count
            switch entries[Self.key(word.text)] {
            case .respelling(let respelling)?:
                spoken.append(contentsOf: respelling.unicodeScalars)
            case .phonemes(let phonemes)?:
                usesPhonemes = true
                spoken.append(contentsOf: "[[\(phonemes)]]".unicodeScalars)
            case nil:
                spoken.append(contentsOf: scalars[word.start..<word.end])
            }
            spokenWords.append(
                WordToken(
                    index: word.index, text: String(scalars: spoken[start...]), start: start, end: spoken.count))
            cursor = word.end
        }
        spoken.append(contentsOf: scalars[cursor...])
        var result = String(scalars: spoken)
        if usesPhonemes {
            // With phoneme input on, "[[" in the book's own text would be read as phonemes.
            result = Self.escapeBrackets(in: result, keeping: spokenWords)
        }
        return LexiconRendering(original: text, spoken: result, words: spokenWords, usesPhonemes: usesPhonemes)
    }

    /// Replaces "[" outside the entries' phoneme spans with "(" (same length, so offsets hold).
    private static func escapeBrackets(in text: String, keeping words: [WordToken]) -> String {
        var scalars = Array(text.unicodeScalars)
        var protected = [Bool](repeating: false, count: scalars.count)
        for word in words where word.text.hasPrefix("[[") {
            for index in word.start..<word.end { protected[index] = true }
        }
        for index in scalars.indices where scalars[index] == "[" && !protected[index] { scalars[index] = "(" }
        return String(scalars: scalars)
    }
}

/// An item's text with a lexicon applied, and where each of the item's words went in it.
package struct LexiconRendering: Sendable, Equatable {
    package var original: String
    /// What the engine is given.
    package var spoken: String
    /// One token per word of the original text, in order: its span in `spoken`.
    package var words: [WordToken] {
        get { changedWords ?? Tokenizer.words(in: original) }
        set { changedWords = newValue }
    }
    /// Whether `spoken` holds `[[phonemes]]` for espeak-ng to read as phonemes.
    package var usesPhonemes: Bool
    /// The words, unless they are the original text's (found when asked for: a build plans
    /// every item's rendering and most never need their words).
    private var changedWords: [WordToken]?

    package init(original: String, spoken: String, words: [WordToken], usesPhonemes: Bool) {
        self.original = original
        self.spoken = spoken
        self.usesPhonemes = usesPhonemes
        changedWords = words
    }

    /// `text` unchanged.
    init(unchanged text: String) {
        original = text
        spoken = text
        usesPhonemes = false
    }

    /// Whether the lexicon changed anything.
    package var isChanged: Bool { spoken != original }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.original == rhs.original && lhs.spoken == rhs.spoken && lhs.usesPhonemes == rhs.usesPhonemes
            && lhs.words == rhs.words
    }
}
