/// How much of a book `verify` transcribes.
package enum VerifyMode: String, Sendable, CaseIterable {
    /// Every chunk is transcribed (and every item screened).
    case full
    /// Every item is screened (``ItemScreen``); a deterministic sample of chunks, and every chunk
    /// holding a flagged item, are transcribed.
    case quick

    /// A chunk is in the quick check's sample when its key (a SHA-256 in hex) starts with one of
    /// these: one chunk in 16, fixed by the chunk's audio and recognizer, so the same build always
    /// samples the same chunks and a chunk verified once stays verified.
    static let sampledKeyPrefixes: Set<Character> = ["0"]

    static func isSampled(chunkKey: String) -> Bool {
        chunkKey.first.map { sampledKeyPrefixes.contains($0) } ?? false
    }
}
