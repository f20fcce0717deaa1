/// A change to one item that the orchestrator commits to the manifest.
public enum ItemUpdate: Sendable, Equatable {
    /// The item's audio and synthesizer events are stored.
    case spoken(itemID: String, audio: StoredObject, events: StoredObject, voice: String)
    /// The item's word timings are computed from its events.
    case aligned(itemID: String, alignmentKey: String, timings: [WordTiming])
    /// The item failed; `error` is the message a person reads.
    case failed(itemID: String, error: String)
}
