/// Where a chunk is: its chapter and its start on the chapter's timeline.
package struct ChunkPosition: Sendable, Hashable {
    package var chapter: Int
    package var startMs: Int
}
