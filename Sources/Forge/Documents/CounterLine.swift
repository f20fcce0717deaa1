/// A short line read as a counter in a decoration of the book's own — `~ 1 ~`, `— IV —`, `§ 12`,
/// `(a)`, `<1>`, `Stave Three`, `Canto XII.`, `Letter 7`, `1. The Title` — with what every heading of
/// one series shares (its ``shape``) apart from what changes (its ``value``).
///
/// Reading a line says nothing about whether it is a heading: ``CounterHeadings`` decides that from
/// the book, by whether lines of one shape recur with a counter that goes up.
struct CounterLine: Hashable {
    /// How the counter is written. A heading series keeps one way throughout.
    enum Kind: Hashable {
        case digits
        case upperRoman
        case lowerRoman
        /// Number words, cardinal or ordinal ("Three", "the First", "TWENTY-ONE"), in any case.
        case words
        case upperLetter
        case lowerLetter
    }

    /// The line with its counter replaced by `#` and its title (if any) by `…`: the word before the
    /// counter lowercased, the decoration as it is, white space folded. `~ # ~`, `stave #`, `#. …`.
    var shape: String
    var kind: Kind
    var value: Int
    /// A title follows the counter ("IV. THE BEGINNING").
    var hasTitle: Bool

    /// Lines longer than this are not read: a heading is short, and a paragraph of prose is not.
    static let maximumLength = 80

    /// Every way `line` reads as a counter (a lone `I` is both a Roman numeral and a letter), or
    /// none: the counter is the line's first or second word (after one word of letters, its
    /// label), with nothing but decoration around it, or with a title after it that punctuation
    /// sets apart (`1. Title`, `IV — Title`).
    static func readings(of line: String) -> [CounterLine] {
        let scalars = Array(line.unicodeScalars)
        guard !scalars.isEmpty, scalars.count <= maximumLength else { return [] }
        let tokens = Token.split(scalars)
        let words = tokens.indices.filter { tokens[$0].isWord }
        guard !words.isEmpty else { return [] }
        var readings: [CounterLine] = []
        // The counter at the first word, or after a label of letters at the second.
        for labelled in [false, true] {
            let counterStart = labelled ? 1 : 0
            guard counterStart < words.count else { continue }
            if labelled {
                let label = tokens[words[0]]
                // A label is a word of letters, not a number ("Chapter", "Canto", "No.").
                guard label.isLetters, label.scalars.count >= 2, HeadingCounter.readings(of: [label.text]).isEmpty
                else { continue }
            }
            // A counter is at most six words ("one hundred and twenty-one"): the rest are not made strings.
            for counter in HeadingCounter.readings(of: words[counterStart...].prefix(6).map { tokens[$0].text }) {
                guard let reading = reading(tokens: tokens, words: words, labelled: labelled, counter: counter) else {
                    continue
                }
                readings.append(reading)
            }
        }
        return readings
    }

    /// The reading whose counter is the words from the first (or, labelled, the second), or nil
    /// when the rest of the line is neither decoration nor a title set apart by punctuation.
    private static func reading(tokens: [Token], words: [Int], labelled: Bool, counter: HeadingCounter) -> CounterLine?
    {
        let firstToken = words[labelled ? 1 : 0]
        let lastToken = words[(labelled ? 1 : 0) + counter.wordCount - 1]
        var shape = ""
        for token in tokens[..<firstToken] {
            // Before the counter: decoration, and the label's word lowercased.
            shape += token.isWord ? token.text.lowercased() : token.text
        }
        shape += "#"
        let rest = tokens[(lastToken + 1)...]
        var hasTitle = false
        if let titleStart = rest.firstIndex(where: \.isWord) {
            // A title must be set apart from the counter by punctuation, not only a space:
            // "IV. The Fall" or "3 — Home", but not "Three men came".
            let between = rest[..<titleStart].map(\.text).joined()
            guard between.unicodeScalars.contains(where: isPunctuationOrSymbol) else { return nil }
            shape += between + "…"
            hasTitle = true
        } else {
            shape += rest.map(\.text).joined()
        }
        return CounterLine(shape: folded(shape), kind: counter.kind, value: counter.value, hasTitle: hasTitle)
    }

    /// Runs of white space as one space, none at either end.
    private static func folded(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Punctuation or a symbol (`.`, `—`, `§`, `~`, `*`, `<`), as opposed to letters, digits and spaces.
    static func isPunctuationOrSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation,
            .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        default:
            false
        }
    }

    /// A run of letters and digits (with the hyphens and apostrophes inside a word), or a run of anything else.
    struct Token {
        var scalars: [Unicode.Scalar]
        var isWord: Bool

        var text: String { String(String.UnicodeScalarView(scalars)) }
        var isLetters: Bool { scalars.allSatisfy { $0.isLetter || $0 == "-" || $0 == "'" || $0 == "’" } }
        var isDigits: Bool { scalars.allSatisfy { ("0"..."9").contains($0) } }

        static func split(_ scalars: [Unicode.Scalar]) -> [Token] {
            var tokens: [Token] = []
            for (index, scalar) in scalars.enumerated() {
                var isWord = scalar.isLetterOrDigit
                // "twenty-one", "o'clock": joined inside a word, decoration elsewhere.
                if !isWord, "-'’".unicodeScalars.contains(scalar), let last = tokens.last, last.isWord,
                    index + 1 < scalars.count,
                    scalars[index + 1].isLetter
                {
                    isWord = true
                }
                if let last = tokens.last, last.isWord == isWord {
                    tokens[tokens.count - 1].scalars.append(scalar)
                } else {
                    tokens.append(Token(scalars: [scalar], isWord: isWord))
                }
            }
            return tokens
        }
    }
}
