/// One item for a worker process to speak, sent as a JSON line on its standard input.
public struct SpeechJob: Sendable, Equatable, Codable {
    public var itemID: String
    public var text: String
    public var voice: VoiceSettings
    public var audio: AudioSettings
    public var audioKey: String
    public var eventsKey: String

    public init(itemID: String, text: String, voice: VoiceSettings, audio: AudioSettings, audioKey: String, eventsKey: String) {
        self.itemID = itemID
        self.text = text
        self.voice = voice
        self.audio = audio
        self.audioKey = audioKey
        self.eventsKey = eventsKey
    }
}
