/// A timing event reported by the synthesizer while it speaks an item.
public struct SynthesisEvent: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// A word starts.
        case word
        /// A sentence starts.
        case sentence
        /// A clause or sentence ends.
        case end
    }

    public var kind: Kind
    /// 0-based Unicode scalar offset in the item text (espeak-ng reports 1-based positions).
    public var textPosition: Int
    /// Length in Unicode scalars; espeak-ng reports 0 for some words.
    public var length: Int
    /// Time in the item's audio, in milliseconds.
    public var audioMs: Int

    public init(kind: Kind, textPosition: Int, length: Int, audioMs: Int) {
        self.kind = kind
        self.textPosition = textPosition
        self.length = length
        self.audioMs = audioMs
    }
}
