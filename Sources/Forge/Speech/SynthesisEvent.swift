/// A timing event reported by the synthesizer while it speaks an item.
///
/// Encoded compactly as `["w", textPosition, length, audioMs]` (`w` word, `s` sentence, `e` end):
/// a book has hundreds of thousands of events, and they travel through worker pipes and events objects.
package struct SynthesisEvent: Sendable, Equatable, Codable {
    package enum Kind: String, Sendable, Codable {
        /// A word starts.
        case word = "w"
        /// A sentence starts.
        case sentence = "s"
        /// A clause or sentence ends.
        case end = "e"
    }

    package var kind: Kind
    /// 0-based Unicode scalar offset in the item text (espeak-ng reports 1-based positions).
    package var textPosition: Int
    /// Length in Unicode scalars; espeak-ng reports 0 for some words.
    package var length: Int
    /// Time in the item's audio, in milliseconds.
    package var audioMs: Int

    package init(kind: Kind, textPosition: Int, length: Int, audioMs: Int) {
        self.kind = kind
        self.textPosition = textPosition
        self.length = length
        self.audioMs = audioMs
    }

    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        kind = try container.decode(Kind.self)
        textPosition = try container.decode(Int.self)
        length = try container.decode(Int.self)
        audioMs = try container.decode(Int.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(kind)
        try container.encode(textPosition)
        try container.encode(length)
        try container.encode(audioMs)
    }
}
