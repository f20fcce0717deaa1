/// What a ``SpeechEngine`` can do beyond speaking plain text.
package struct SpeechCapabilities: OptionSet, Sendable, Hashable {
    package let rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Reports where every word starts as it speaks, so its items need no forced alignment.
    package static let wordTimings = SpeechCapabilities(rawValue: 1 << 0)
    /// Reads `[[…]]` as espeak-ng phoneme mnemonics, so a lexicon entry can give phonemes.
    package static let phonemeInput = SpeechCapabilities(rawValue: 1 << 1)
    /// A voice id is a language tag ("en-us", "fr"): the speech recognizer can take it as the language
    /// the audio is in, and ids are checked against the installed voices before a build.
    package static let languageVoices = SpeechCapabilities(rawValue: 1 << 2)
    /// Takes a voice's `rate`, `pitch` and `volume`; other engines take their own `options` instead.
    package static let prosody = SpeechCapabilities(rawValue: 1 << 3)
}
