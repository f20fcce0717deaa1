/// Where a chunk is: its chapter and its start on the chapter's timeline.
public struct ChunkPosition: Sendable, Hashable {
    public var chapter: Int
    public var startMs: Int
}
