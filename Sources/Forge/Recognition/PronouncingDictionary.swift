import Foundation

/// A pronouncing dictionary holding only the words a book uses: the CMU dictionary's entries
/// (every variant) where it has them, espeak-ng's pronunciation mapped to ARPAbet otherwise.
///
/// A decoder given this instead of the whole CMU dictionary (135,000 words) starts faster and
/// switches language models in a fraction of the time, because pocketsphinx maps every
/// dictionary word into each model it loads.
struct PronouncingDictionary {
    /// Dictionary key → pronunciations (phones), the first being the main one.
    private(set) var entries: [String: [[String]]] = [:]

    /// Looks up `words` (any spelling: keys are made with ``Pronouncer/dictionaryKey(_:)``) in
    /// the CMU-format dictionary at `base`, and asks espeak-ng for the rest.
    init(words: some Sequence<String>, base: URL, language: String) throws(RecognitionError) {
        var wanted: [String: String] = [:]
        for word in words {
            let key = Pronouncer.dictionaryKey(word)
            if !key.isEmpty, wanted[key] == nil { wanted[key] = word }
        }
        try CMUDictionary.forEachEntry(in: base) { key, phones in
            guard wanted[key] != nil else { return }
            let split = phones().split(separator: " ").map(String.init)
            if !split.isEmpty { entries[key, default: []].append(split) }
        }
        addEspeakPronunciations(wanted, pronouncer: Pronouncer(language: language))
    }

    /// Looks up `words` in a dictionary already read, and asks `pronouncer` for the rest: one
    /// item's dictionary, made in well under a millisecond.
    init(words: some Sequence<String>, from dictionary: CMUDictionary, pronouncer: Pronouncer) {
        var wanted: [String: String] = [:]
        for word in words {
            let key = Pronouncer.dictionaryKey(word)
            guard !key.isEmpty, wanted[key] == nil else { continue }
            wanted[key] = word
            if let pronunciations = dictionary.pronunciations(of: key) { entries[key] = pronunciations }
        }
        addEspeakPronunciations(wanted, pronouncer: pronouncer)
    }

    /// espeak-ng's pronunciation of each wanted word that has no entry yet.
    private mutating func addEspeakPronunciations(_ wanted: [String: String], pronouncer: Pronouncer) {
        for (key, word) in wanted where entries[key] == nil {
            if let phones = pronouncer.espeakPhones(for: word) { entries[key] = [phones] }
        }
    }

    /// The dictionary in CMU format (`word PH ONES`, variants as `word(2)`), sorted, as
    /// pocketsphinx's `-dict` reads it.
    var text: String {
        var text = ""
        for key in entries.keys.sorted() {
            for (index, phones) in entries[key]!.enumerated() {
                text += (index == 0 ? key : "\(key)(\(index + 1))") + " " + phones.joined(separator: " ") + "\n"
            }
        }
        return text
    }
}
