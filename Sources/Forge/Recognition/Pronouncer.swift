/// Gives a decoder a dictionary entry for every word it must recognize: the CMU dictionary's
/// own where it has one, otherwise espeak-ng's pronunciation mapped to ARPAbet.
struct Pronouncer {
    private let espeak: EspeakEngine?
    private let language: String

    init(language: String = "en-us") {
        espeak = try? EspeakEngine()
        self.language = language
    }

    /// The dictionary word `text` is recognized as, with its phones (nil when it has no
    /// pronunciation at all). Adds the word to `decoder` when the dictionary lacks it.
    func entry(for text: String, in decoder: PocketSphinxDecoder) -> (key: String, phones: [String])? {
        if text.hasPrefix("[["), text.hasSuffix("]]") {
            // A lexicon entry's espeak-ng phonemes: the word is listened for as those phonemes.
            let phones = ArpabetMapper.phones(fromEspeak: String(text.dropFirst(2).dropLast(2)))
            let key = "forge-phonemes-" + String(ContentHash.sha256Hex(text).prefix(10))
            guard !phones.isEmpty else { return nil }
            if decoder.pronunciation(of: key) == nil, !decoder.addWord(key, phones: phones.joined(separator: " ")) {
                return nil
            }
            return (key, phones)
        }
        let key = Self.dictionaryKey(text)
        guard !key.isEmpty else { return nil }
        if let phones = decoder.pronunciation(of: key) { return (key, phones) }
        guard let phones = espeakPhones(for: text), decoder.addWord(key, phones: phones.joined(separator: " ")) else {
            return nil
        }
        return (key, phones)
    }

    /// espeak-ng's pronunciation of `text` in ARPAbet, for words the CMU dictionary lacks.
    func espeakPhones(for text: String) -> [String]? {
        guard let mnemonics = espeak?.phonemes(for: text, language: language) else { return nil }
        let phones = ArpabetMapper.phones(fromEspeak: mnemonics)
        return phones.isEmpty ? nil : phones
    }

    /// The dictionary spelling of a word: lower case, typographic apostrophes made plain, other
    /// punctuation dropped; the characters a JSGF grammar token may hold.
    static func dictionaryKey(_ text: String) -> String {
        var key = ""
        for scalar in text.lowercased().unicodeScalars {
            switch scalar {
            case "\u{2019}", "\u{2018}", "'": key.unicodeScalars.append("'")
            case "-", ".": key.unicodeScalars.append(scalar)
            default:
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    key.unicodeScalars.append(scalar)
                }
            }
        }
        while key.hasPrefix("'") || key.hasPrefix("-") || key.hasPrefix(".") { key.removeFirst() }
        while key.hasSuffix("'") || key.hasSuffix("-") || key.hasSuffix(".") { key.removeLast() }
        return key
    }
}
