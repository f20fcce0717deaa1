import Foundation

/// A heading's counter, read from the first words of what follows its label: digits (`12`),
/// a Roman numeral (`XII`, `xii`), a letter (`C`), or number words (`Twelve`, `the Twelfth`,
/// `Twenty-One`, `One Hundred and Five`).
struct HeadingCounter: Equatable {
    var kind: CounterLine.Kind
    var value: Int
    /// How many of the words it takes.
    var wordCount: Int

    /// Every counter that `words` (a line's word tokens from where a counter may start) begin with;
    /// only the first six are read.
    static func readings(of words: some Collection<String>) -> [HeadingCounter] {
        guard let first = words.first else { return [] }
        var readings: [HeadingCounter] = []
        if first.count <= 5, first.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(first) {
            readings.append(HeadingCounter(kind: .digits, value: value, wordCount: 1))
        }
        if let value = romanValue(first) {
            readings.append(
                HeadingCounter(kind: first.first!.isUppercase ? .upperRoman : .lowerRoman, value: value, wordCount: 1))
        }
        if first.unicodeScalars.count == 1, let scalar = first.unicodeScalars.first, scalar.isASCII,
            scalar.properties.isAlphabetic
        {
            let upper = scalar.properties.isUppercase
            let value = Int(scalar.value) - Int((upper ? "A" : "a" as Unicode.Scalar).value) + 1
            readings.append(HeadingCounter(kind: upper ? .upperLetter : .lowerLetter, value: value, wordCount: 1))
        }
        if let (value, count) = numberWordsValue(Array(words.prefix(6))) {
            readings.append(HeadingCounter(kind: .words, value: value, wordCount: count))
        }
        return readings
    }

    /// The value of one word that writes a number ("Twenty-One", "FORTY", "third"), or nil.
    static func wordValue(_ word: some StringProtocol) -> Int? {
        let folded = word.trimmingCharacters(in: CharacterSet(charactersIn: ".:,"))
        guard !folded.isEmpty, let (value, count) = numberWordsValue([folded]), count == 1 else { return nil }
        return value
    }

    /// The value of a Roman numeral written the usual way (`XIV`, not `XIIII` or `IXX`), in one case.
    static func romanValue(_ text: String) -> Int? {
        guard (1...12).contains(text.count) else { return nil }
        let upper = text.uppercased()
        guard text == upper || text == text.lowercased() else { return nil }
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        var total = 0
        let digits = upper.map { values[$0] }
        guard digits.allSatisfy({ $0 != nil }) else { return nil }
        for (index, digit) in digits.enumerated() {
            let next = index + 1 < digits.count ? digits[index + 1]! : 0
            total += digit! < next ? -digit! : digit!
        }
        return (1...3999).contains(total) && roman(total) == upper ? total : nil
    }

    /// `value` as an upper-case Roman numeral.
    static func roman(_ value: Int) -> String {
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
            (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var rest = value
        var text = ""
        for (amount, numeral) in table {
            while rest >= amount {
                text += numeral
                rest -= amount
            }
        }
        return text
    }

    static let units = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let unitOrdinals = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
        "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
    ]
    static let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let tenOrdinals = [
        "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth",
    ]

    /// English number words at the start of `words`, cardinal or ordinal, up to 999, with an optional
    /// "the" before an ordinal: their value and how many words they take ("Twenty-One" is one word,
    /// "Twenty One" two, "the Last" none).
    static func numberWordsValue(_ words: [String]) -> (value: Int, count: Int)? {
        // Hyphenated words count as their parts; `taken` maps parts back to words.
        var parts: [String] = []
        var wordOfPart: [Int] = []
        for (index, word) in words.enumerated() {
            for part in word.lowercased().split(whereSeparator: { $0 == "-" }) {
                parts.append(String(part))
                wordOfPart.append(index)
            }
        }
        var position = 0
        let hasThe = parts.first == "the"
        if hasThe { position = 1 }
        func small(_ at: Int) -> (value: Int, ordinal: Bool, next: Int)? {
            guard at < parts.count else { return nil }
            if let index = units.firstIndex(of: parts[at]) { return (index + 1, false, at + 1) }
            if let index = unitOrdinals.firstIndex(of: parts[at]) { return (index + 1, true, at + 1) }
            if let index = tenOrdinals.firstIndex(of: parts[at]) { return ((index + 2) * 10, true, at + 1) }
            guard let index = tens.firstIndex(of: parts[at]) else { return nil }
            let value = (index + 2) * 10
            if at + 1 < parts.count, let unit = units.prefix(9).firstIndex(of: parts[at + 1]) {
                return (value + unit + 1, false, at + 2)
            }
            if at + 1 < parts.count, let unit = unitOrdinals.prefix(9).firstIndex(of: parts[at + 1]) {
                return (value + unit + 1, true, at + 2)
            }
            return (value, false, at + 1)
        }
        guard var (value, ordinal, next) = small(position) else { return nil }
        if value < 10, !ordinal, next < parts.count, parts[next] == "hundred" || parts[next] == "hundredth" {
            ordinal = parts[next] == "hundredth"
            value *= 100
            next += 1
            var after = next
            if !ordinal, after < parts.count, parts[after] == "and" { after += 1 }
            if !ordinal, let rest = small(after), rest.value < 100 {
                value += rest.value
                ordinal = rest.ordinal
                next = rest.next
            }
        }
        // "the" goes only before an ordinal ("the First"), not a cardinal ("the One"); and the
        // number ends where a word does ("Twenty-Something" is no number).
        guard !hasThe || ordinal, next == parts.count || wordOfPart[next] != wordOfPart[next - 1] else { return nil }
        return (value, wordOfPart[next - 1] + 1)
    }
}
