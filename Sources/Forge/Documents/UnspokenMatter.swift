/// What a reader left out of a document because it is not the book: a tally of words by kind
/// ("Project Gutenberg licence", "contents", "title page" …), for `forge plan` to report.
package struct UnspokenMatter: Sendable, Equatable {
    package private(set) var words = 0
    /// The kinds left out, in the order first met, each once.
    package private(set) var kinds: [String] = []

    package init() {}

    /// Counts `text`'s words as left out as `kind`.
    package mutating func add(_ kind: String, text: some Sequence<Unicode.Scalar>) {
        add(kind, words: PlainTextReader.wordCount(Array(text)))
    }

    package mutating func add(_ kind: String, words count: Int) {
        guard count > 0 else { return }
        words += count
        if !kinds.contains(kind) { kinds.append(kind) }
    }

    package mutating func add(_ other: UnspokenMatter) {
        words += other.words
        for kind in other.kinds where !kinds.contains(kind) { kinds.append(kind) }
    }
}
