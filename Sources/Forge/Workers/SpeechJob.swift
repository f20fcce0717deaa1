/// One audio object for a worker process to make, sent as a JSON line on its standard input.
public struct SpeechJob: Sendable, Equatable, Codable {
    public var itemID: String
    public var text: String
    public var voice: VoiceSettings
    public var audio: AudioSettings
    public var audioKey: String
    public var eventsKey: String
    /// Whether `[[…]]` in `text` are espeak-ng phonemes (a lexicon entry put them there).
    public var phonemeInput: Bool
    /// The engine's version, recorded in the events object.
    public var engineVersion: String
    /// The command engine that speaks `voice`, or nil for espeak-ng.
    public var commandEngine: CommandEngineSettings?

    public init(
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
