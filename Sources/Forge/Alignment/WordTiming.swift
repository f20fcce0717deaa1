/// When a word is spoken in its item's audio, in milliseconds from the item's start.
public struct WordTiming: Sendable, Equatable, Codable {
    public var startMs: Int
    public var endMs: Int

    public init(startMs: Int, endMs: Int) {
        self.startMs = startMs
        self.endMs = endMs
    }
}
