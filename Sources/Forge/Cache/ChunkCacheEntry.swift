import Foundation

/// The remote cache's entry for one verification chunk, stored at `ac/{actionKey}` (no blobs):
/// what the recognizer heard in a 2-minute stretch of a chapter and how it scored. Verification
/// is the slowest stage by far (pocketsphinx's decoding, against espeak-ng's synthesis), so a
/// machine that downloaded a book's items also takes its verification from the cache.
package struct ChunkCacheEntry: Codable, Sendable, Equatable {
    package static let formatName = "forge-verify-chunk"
    package static let currentVersion = 1

    package struct Flagged: Codable, Sendable, Equatable {
        package var item: String
        package var missing: [String]
        /// Speech the item's text does not have (absent when none).
        package var extra: [String]?
    }

    /// A sentence heard, its times relative to the chunk's start.
    package struct Sentence: Codable, Sendable, Equatable {
        package var startMs: Int
        package var endMs: Int
        package var text: String
    }

    package var format = Self.formatName
    package var version = Self.currentVersion
    /// The chunk's length, a check that the entry fits the chunk it is filed under.
    package var durationMs: Int
    package var wordErrorRate: Double
    package var referenceWords: Int
    package var errors: Int
    package var flagged: [Flagged]
    package var sentences: [Sentence]

    package init(
        durationMs: Int, wordErrorRate: Double, referenceWords: Int, errors: Int, flagged: [Flagged],
        sentences: [Sentence]
    ) {
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
    package static func actionKey(chunkKey: String, audioDigests: [String]) -> String {
        ObjectKey.digest([
            "cache": formatName, "version": String(currentVersion), "chunk": chunkKey,
            "audio": audioDigests.joined(separator: ","),
        ])
    }

    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Whether the entry could describe a chunk of `durationMs` whose items are `items`: numbers in
    /// range, flagged items among the chunk's, sentences inside it. A server's entry that is not is
    /// ignored (the chunk is transcribed here), never recorded.
    package func fits(durationMs expected: Int, items: Set<String>) -> Bool {
        durationMs == expected && wordErrorRate.isFinite && wordErrorRate >= 0 && referenceWords >= 0 && errors >= 0
            && flagged.allSatisfy {
                items.contains($0.item) && $0.missing.count <= 10_000 && ($0.extra?.count ?? 0) <= 10_000
            }
            && sentences.count <= 10_000
            && sentences.allSatisfy {
                $0.startMs >= 0 && $0.startMs <= $0.endMs && $0.endMs <= expected && $0.text.utf8.count <= 100_000
            }
    }
}
