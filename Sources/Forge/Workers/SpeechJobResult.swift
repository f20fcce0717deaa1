/// A worker's answer for one ``SpeechJob``, sent as a JSON line on its standard output.
package struct SpeechJobResult: Sendable, Equatable, Codable {
    package var itemID: String
    /// Set when the item failed; the message a person reads.
    package var error: String?
    package var audio: StoredObject?
    package var events: StoredObject?
    /// The synthesizer's events, also stored in the events object, so the orchestrator can align without reading it back.
    package var document: SpeechEventsDocument?

    package init(
        itemID: String, error: String? = nil, audio: StoredObject? = nil, events: StoredObject? = nil,
        document: SpeechEventsDocument? = nil
    ) {
        self.itemID = itemID
        self.error = error
        self.audio = audio
        self.events = events
        self.document = document
    }
}
