/// Maps espeak-ng's English phoneme mnemonics (as `espeak-ng -x --sep=_` prints them) to the
/// ARPAbet phones of the CMU dictionary and pocketsphinx's en-us acoustic model.
package enum ArpabetMapper {
    /// espeak-ng mnemonic → ARPAbet phones. Names absent here fall back to their longest known
    /// prefix (espeak-ng marks variants with digits and `#`, e.g. `I2`, `a#`).
    static let table: [String: [String]] = [
        // vowels and diphthongs
        "a": ["AE"], "aa": ["AE"], "a#": ["AH"], "A:": ["AA"], "A@": ["AA", "R"], "A": ["AA"],
        "aI": ["AY"], "aI@": ["AY", "ER"], "aI3": ["AY", "ER"], "aU": ["AW"], "aU@": ["AW", "ER"],
        "@": ["AH"], "@L": ["AH", "L"], "@r": ["ER"], "@2": ["AH"], "@5": ["AH"], "3": ["ER"], "3:": ["ER"],
        "E": ["EH"], "E2": ["EH"], "E@": ["EH", "R"], "e@": ["EH", "R"], "eI": ["EY"], "e": ["EH"],
        "I": ["IH"], "I2": ["IH"], "I#": ["IH"], "i": ["IY"], "i:": ["IY"], "i@": ["IY", "R"], "i@3": ["IY", "ER"],
        "O": ["AO"], "O:": ["AO"], "O@": ["AO", "R"], "o@": ["AO", "R"], "OI": ["OY"], "o": ["OW"],
        "oU": ["OW"], "oU#": ["OW"], "0": ["AA"], "02": ["AA"], "U": ["UH"], "U@": ["UH", "R"],
        "u": ["UW"], "u:": ["UW"], "V": ["AH"],
        // consonants
        "b": ["B"], "d": ["D"], "D": ["DH"], "dZ": ["JH"], "f": ["F"], "g": ["G"], "h": ["HH"],
        "j": ["Y"], "k": ["K"], "l": ["L"], "m": ["M"], "n": ["N"], "N": ["NG"], "p": ["P"], "r": ["R"],
        "s": ["S"], "S": ["SH"], "t": ["T"], "T": ["TH"], "tS": ["CH"], "v": ["V"], "w": ["W"],
        "z": ["Z"], "Z": ["ZH"], "x": ["K"], "*": ["T"], "r-": ["R"], "l/": ["L"], "n-": ["N"], "m-": ["M"],
        "t#": ["T"], "d#": ["D"], "z#": ["Z"], "w#": ["W"],
    ]

    /// Characters espeak-ng uses for stress, length and syllable marks rather than phonemes.
    static let marks: Set<Character> = ["'", ",", "%", "=", "|", "!"]

    /// ARPAbet phones for an espeak-ng phoneme string such as `h_@_l_'oU b_'E_n_I2_t`; empty
    /// when nothing in it maps.
    package static func phones(fromEspeak mnemonics: String) -> [String] {
        var result: [String] = []
        for word in mnemonics.split(whereSeparator: \.isWhitespace) {
            for raw in word.split(separator: "_") {
                var name = Substring(raw.filter { !marks.contains($0) })
                while !name.isEmpty {
                    var length = name.count
                    while length > 0, table[String(name.prefix(length))] == nil { length -= 1 }
                    if length == 0 {
                        name = name.dropFirst()
                        continue
                    }
                    result += table[String(name.prefix(length))]!
                    name = name.dropFirst(length)
                }
            }
        }
        return result
    }
}
