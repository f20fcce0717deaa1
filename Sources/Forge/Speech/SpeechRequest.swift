/// One text for a ``SpeechEngine`` to speak.
public struct SpeechRequest: Sendable, Equatable {
    /// Names the item in errors and in the engine's own logs.
    public var itemID: String
    public var text: String
    public var voice: VoiceSettings
    /// Whether `[[…]]` in `text` are phonemes (a lexicon entry put them there); only for engines
    /// with ``SpeechCapabilities/phonemeInput``.
    public var phonemeInput: Bool

    public init(itemID: String, text: String, voice: VoiceSettings, phonemeInput: Bool = false) {
        self.itemID = itemID
        self.text = text
        self.voice = voice
        self.phonemeInput = phonemeInput
    }
}
