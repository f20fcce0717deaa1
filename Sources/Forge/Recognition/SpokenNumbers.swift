import Synchronization

/// Written numbers as the engine says them: "1491" is "one thousand four hundred ninety one" to
/// espeak-ng, "1990" "nineteen hundred ninety", "£4,228" "pound four thousand two hundred twenty
/// eight", "1/3" "one slash three", "8:59" "eight fifty nine". A reader's rules ("fourteen ninety
/// one") miss what the synthesizer said, so the words are found from espeak-ng's own phonemes for
/// the written token: the phonemes are cut into words of a small lexicon (numbers, ordinals,
/// units, the names of letters), each phonemized by espeak-ng too, compared as ARPAbet.
enum SpokenNumbers {
    /// The words espeak-ng says numbers, money, fractions, times and ordinals with.
    static let lexicon: [String] = {
        let ones = [
            "zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
            "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ]
        let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        let ordinals = [
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
            "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
            "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth",
            "hundredth", "thousandth",
        ]
        let scales = [
            "hundred", "thousand", "million", "billion", "and", "point", "minus", "slash", "dash", "percent", "pound",
            "pounds", "dollar", "dollars", "cent", "cents", "euro", "euros", "degrees", "hash", "plus", "times", "to",
        ]
        let letters = (UnicodeScalar("a").value...UnicodeScalar("z").value).compactMap(UnicodeScalar.init).map {
            String($0)
        }
        return ones + tens + ordinals + scales + letters
    }()

    private struct State {
        var engine: EspeakEngine?
        /// Each lexicon word's phones, by language.
        var lexicons: [String: [(word: String, phones: [String])]] = [:]
        var spoken: [String: [String]?] = [:]
    }

    private static let state = Mutex(State(engine: try? EspeakEngine()))

    /// The words `written` (a token with digits) is said as in `language`, or nil when espeak-ng's
    /// phonemes for it are not all lexicon words (the caller keeps its own reading then).
    static func words(for written: String, language: String = "en-us") -> [String]? {
        state.withLock { state in
            let key = language + "\u{1F}" + written
            if let known = state.spoken[key] { return known }
            guard let engine = state.engine else { return nil }
            if state.lexicons[language] == nil {
                state.lexicons[language] = lexicon.compactMap { word in
                    // A letter is said as its name: ask for the capital ("D", not the article "a").
                    let spelled = word.count == 1 ? word.uppercased() : word
                    guard let mnemonics = engine.phonemes(for: spelled, language: language) else { return nil }
                    let phones = ArpabetMapper.phones(fromEspeak: mnemonics)
                    return phones.isEmpty ? nil : (word, phones)
                }
            }
            var result: [String]?
            if let mnemonics = engine.phonemes(for: written, language: language) {
                result = segment(ArpabetMapper.phones(fromEspeak: mnemonics), lexicon: state.lexicons[language] ?? [])
            }
            state.spoken[key] = result
            return result
        }
    }

    /// `phones` cut into lexicon words, every phone used once (fewest words where there are two
    /// ways), or nil.
    static func segment(_ phones: [String], lexicon: [(word: String, phones: [String])]) -> [String]? {
        guard !phones.isEmpty else { return nil }
        // best[i]: the fewest words covering phones[..<i], and the word ending there.
        var best: [(count: Int, word: String, from: Int)?] = Array(repeating: nil, count: phones.count + 1)
        best[0] = (0, "", 0)
        for end in 1...phones.count {
            for entry in lexicon where entry.phones.count <= end {
                let start = end - entry.phones.count
                guard let before = best[start], phones[start..<end].elementsEqual(entry.phones) else { continue }
                if best[end] == nil || before.count + 1 < best[end]!.count {
                    best[end] = (before.count + 1, entry.word, start)
                }
            }
        }
        guard best[phones.count] != nil else { return nil }
        var words: [String] = []
        var position = phones.count
        while position > 0, let step = best[position] {
            words.append(step.word)
            position = step.from
        }
        return words.reversed()
    }
}
