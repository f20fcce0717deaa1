/// The chapters and speakable items of a book.
public struct SplitResult: Sendable, Equatable {
    public var chapters: [Chapter]
    public var items: [SpeakableItem]

    public var wordCount: Int { items.reduce(0) { $0 + $1.words.count } }
}
