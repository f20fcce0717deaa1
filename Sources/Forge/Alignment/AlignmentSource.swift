/// Where an item's word timings came from.
package enum AlignmentSource: String, Sendable, Codable {
    /// The synthesizer's own word events: exact for the audio it made.
    case synthesizer
    /// Forced alignment of the audio against the item's words with the speech recognizer.
    case forced
}
