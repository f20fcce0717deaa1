/// One text for a ``SpeechEngine`` to speak.
package struct SpeechRequest: Sendable, Equatable {
    /// Names the item in errors and in the engine's own logs.
    package var itemID: String
    package var text: String
    package var voice: VoiceSettings
    /// Whether `[[…]]` in `text` are phonemes (a lexicon entry put them there); only for engines
    /// with ``SpeechCapabilities/phonemeInput``.
    package var phonemeInput: Bool

    package init(itemID: String, text: String, voice: VoiceSettings, phonemeInput: Bool = false) {
        self.itemID = itemID
        self.text = text
        self.voice = voice
        self.phonemeInput = phonemeInput
    }
}
