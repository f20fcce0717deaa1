/// The chapters and speakable items of a book.
package struct SplitResult: Sendable, Equatable {
    package var chapters: [Chapter]
    package var items: [SpeakableItem]
    /// How each source was read: its encoding and what of it is not spoken (``SourceReading``).
    package var readings: [SourceReading] = []

    package var wordCount: Int { items.reduce(0) { $0 + $1.wordCount } }
}
