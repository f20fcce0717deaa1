/// One audio object for a worker process to make, sent as a JSON line on its standard input.
package struct SpeechJob: Sendable, Equatable, Codable {
    package var itemID: String
    package var text: String
    package var voice: VoiceSettings
    package var audio: AudioSettings
    package var audioKey: String
    package var eventsKey: String
    /// Whether `[[…]]` in `text` are espeak-ng phonemes (a lexicon entry put them there).
    package var phonemeInput: Bool
    /// The engine's version, recorded in the events object.
    package var engineVersion: String
    /// The command engine that speaks `voice`, or nil for espeak-ng.
    package var commandEngine: CommandEngineSettings?

    package init(
        itemID: String, text: String, voice: VoiceSettings, audio: AudioSettings, audioKey: String, eventsKey: String,
        phonemeInput: Bool = false, engineVersion: String = "", commandEngine: CommandEngineSettings? = nil
    ) {
        self.phonemeInput = phonemeInput
        self.engineVersion = engineVersion
        self.commandEngine = commandEngine
        self.itemID = itemID
        self.text = text
        self.voice = voice
        self.audio = audio
        self.audioKey = audioKey
        self.eventsKey = eventsKey
    }
}
