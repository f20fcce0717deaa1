/// When a word is spoken in its item's audio, in milliseconds from the item's start.
package struct WordTiming: Sendable, Equatable, Codable {
    package var startMs: Int
    package var endMs: Int

    package init(startMs: Int, endMs: Int) {
        self.startMs = startMs
        self.endMs = endMs
    }
}
