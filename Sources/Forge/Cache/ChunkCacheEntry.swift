import Foundation

/// The remote cache's entry for one verification chunk, stored at `ac/{actionKey}` (no blobs):
/// what the recognizer heard in a 2-minute stretch of a chapter and how it scored. Verification
/// is the slowest stage by far (pocketsphinx at about 0.03× real time, against synthesis at about
/// 0.002×), so a machine that downloaded a book's items also takes its verification from the cache.
public struct ChunkCacheEntry: Codable, Sendable, Equatable {
    public static let formatName = "forge-verify-chunk"
    public static let currentVersion = 1

    public struct Flagged: Codable, Sendable, Equatable {
        public var item: String
        public var missing: [String]
    }

    /// A sentence heard, its times relative to the chunk's start.
    public struct Sentence: Codable, Sendable, Equatable {
        public var startMs: Int
        public var endMs: Int
        public var text: String
    }

    public var format = Self.formatName
    public var version = Self.currentVersion
    /// The chunk's length, a check that the entry fits the chunk it is filed under.
    public var durationMs: Int
    public var wordErrorRate: Double
    public var referenceWords: Int
    public var errors: Int
    public var flagged: [Flagged]
    public var sentences: [Sentence]

    public init(durationMs: Int, wordErrorRate: Double, referenceWords: Int, errors: Int, flagged: [Flagged], sentences: [Sentence]) {
        self.durationMs = durationMs
        self.wordErrorRate = wordErrorRate
        self.referenceWords = referenceWords
        self.errors = errors
        self.flagged = flagged
        self.sentences = sentences
    }

    /// Where a chunk's entry is filed: its verification key (the audio keys on its stretch, their
    /// places, the recognizer) and the SHA-256 of each of those audio files, so a result is only
    /// ever applied to the very bytes it was heard from.
    public static func actionKey(chunkKey: String, audioDigests: [String]) -> String {
        ObjectKey.digest([
            "cache": formatName, "version": String(currentVersion), "chunk": chunkKey, "audio": audioDigests.joined(separator: ","),
        ])
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
