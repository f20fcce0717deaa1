/// A change to one item that the orchestrator commits to the manifest.
package enum ItemUpdate: Sendable, Equatable {
    /// The item's audio and synthesizer events are stored.
    case spoken(itemID: String, audio: StoredObject, events: StoredObject, voice: String)
    /// The item's audio and events came from the remote cache (digests verified), not from synthesis
    /// here; with `remote`, the audio was left in that cache (its name) and is described, not stored.
    case downloaded(
        itemID: String, audio: StoredObject, events: StoredObject, voice: String, remote: RemoteAudio? = nil)
    /// The item's audio is a piece of a narration (no synthesizer events).
    case narrated(itemID: String, audio: StoredObject, voice: String)
    /// The item's word timings are computed: from its events, or by forced alignment (then with
    /// a confidence per word, nil where the word was interpolated, and the stored alignment object).
    case aligned(
        itemID: String, alignmentKey: String, source: AlignmentSource, timings: [WordTiming], confidences: [Double?]?,
        object: StoredObject?)
    /// The item failed; `error` is the message a person reads.
    case failed(itemID: String, error: String)

    /// Where an item's audio left in a remote cache is, and what it measures.
    package struct RemoteAudio: Sendable, Equatable {
        package var cache: String
        package var signal: ItemSignal

        package init(cache: String, signal: ItemSignal) {
            self.cache = cache
            self.signal = signal
        }
    }
}
