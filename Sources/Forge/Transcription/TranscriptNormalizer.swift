/// Puts text and recognizer output into one comparable form: lower case, no punctuation,
/// numbers as the engine speaks them, common abbreviations expanded ("Mr." → "mister"), so that a
/// word error rate counts what was said, not how it was written.
package enum TranscriptNormalizer {
    static let abbreviations: [String: [String]] = [
        "mr": ["mister"], "mrs": ["missus"], "dr": ["doctor"], "st": ["saint"], "jr": ["junior"],
        "sr": ["senior"], "prof": ["professor"], "vs": ["versus"], "etc": ["et", "cetera"], "no": ["no"],
        "&": ["and"], "%": ["percent"],
    ]

    /// Normalized tokens of `text`.
    package static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        for word in Tokenizer.words(in: text) { result += normalize(word.text) }
        return result
    }

    /// One written word as the words a reader says. A word with digits is said as espeak-ng says it
    /// (``SpokenNumbers``: "1491" is "one thousand four hundred ninety one" to it), the rules below
    /// only where espeak-ng's reading is not made of number words.
    package static func normalize(_ word: String) -> [String] {
        if word.contains(where: \.isNumber), let spoken = SpokenNumbers.words(for: word) { return spoken }
        var key = Pronouncer.dictionaryKey(word)
        if key.hasSuffix("'s") && Int(key.dropLast(2)) != nil { key = String(key.dropLast(2)) }
        guard !key.isEmpty else { return [] }
        if let expansion = abbreviations[key] { return expansion }
        if key.allSatisfy(\.isNumber), let number = Int(key) {
            return NumberWords.spoken(number, asYear: key.count == 4)
        }
        if let ordinal = NumberWords.ordinal(key) { return ordinal }
        // "Lucas-Lodge" and "good-humoured": the recognizer hears the parts.
        return key.split(separator: "-").map { String($0).trimmingCharacters(in: .init(charactersIn: ".'")) }.filter {
            !$0.isEmpty
        }
    }
}
