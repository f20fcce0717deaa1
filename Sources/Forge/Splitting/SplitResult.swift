/// The chapters and speakable items of a book.
package struct SplitResult: Sendable, Equatable {
    package var chapters: [Chapter]
    package var items: [SpeakableItem]

    package var wordCount: Int { items.reduce(0) { $0 + $1.wordCount } }
}
