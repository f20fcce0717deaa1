/// A worker's answer for one ``SpeechJob``, sent as a JSON line on its standard output.
public struct SpeechJobResult: Sendable, Equatable, Codable {
    public var itemID: String
    /// Set when the item failed; the message a person reads.
    public var error: String?
    public var audio: StoredObject?
    public var events: StoredObject?
    /// The synthesizer's events, also stored in the events object, so the orchestrator can align without reading it back.
    public var document: SpeechEventsDocument?

    public init(itemID: String, error: String? = nil, audio: StoredObject? = nil, events: StoredObject? = nil, document: SpeechEventsDocument? = nil) {
        self.itemID = itemID
        self.error = error
        self.audio = audio
        self.events = events
        self.document = document
    }
}
