/// How a text is read aloud, by espeak-ng's reading of it: its phonemes and its clauses (each ended
/// by a pause). What the quick check expects an item to take is made from these, so numbers,
/// abbreviations, symbols and Roman numerals take what the engine says for them, not their letters.
package struct SpokenReading: Sendable, Equatable {
    package var phonemes: Int
    package var clauses: Int
    /// Fricatives and affricates among the phonemes (s, z, sh, f, th, h …): they raise the
    /// zero-crossing rate of a voice's item as vowels and voiced sounds lower it.
    package var fricatives: Int

    package init(phonemes: Int, clauses: Int, fricatives: Int = 0) {
        self.phonemes = phonemes
        self.clauses = clauses
        self.fricatives = fricatives
    }

    /// Share of the phonemes that are fricatives.
    package var fricativeShare: Double { phonemes > 0 ? Double(fricatives) / Double(phonemes) : 0 }

    /// espeak-ng's mnemonics of fricatives and affricates, without stress marks.
    static let fricativeMnemonics: Set<Substring> = [
        "s", "z", "S", "Z", "f", "v", "T", "D", "h", "x", "tS", "dZ", "C", "s2", "z2",
    ]

    /// The phonemes in espeak-ng's mnemonics of a clause (phonemes separated by `_`, words by
    /// spaces) — every piece with a sound in it, stress (`'`, `,`), length (`:`) and pause marks
    /// aside — and the fricatives among them.
    static func counts(_ mnemonics: String) -> (phonemes: Int, fricatives: Int) {
        var phonemes = 0
        var fricatives = 0
        for word in mnemonics.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            for phoneme in word.split(separator: "_") where phoneme.contains(where: { !"':,%=-|".contains($0) }) {
                phonemes += 1
                let bare = phoneme.filter { !"':,%=-|".contains($0) }
                if fricativeMnemonics.contains(Substring(bare)) { fricatives += 1 }
            }
        }
        return (phonemes, fricatives)
    }
}
