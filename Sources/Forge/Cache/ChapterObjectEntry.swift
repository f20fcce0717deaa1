import Foundation

/// The remote cache's entry for one finished object of a chapter — its AAC encoding (which the M4B
/// and the EPUB join) or its ACX file — stored at `ac/{actionKey}`, its bytes at `cas/{sha256}`. A
/// shard that finishes a chapter uploads it; the assembling build takes it instead of encoding or
/// mastering the chapter again. Filed under the object's own key (everything that shaped it) and
/// the SHA-256 of each of the chapter's audio files, so it is only ever taken for the same bytes.
package struct ChapterObjectEntry: Codable, Sendable, Equatable {
    package static let formatName = "forge-chapter-object"
    package static let currentVersion = 1

    package var format = Self.formatName
    package var version = Self.currentVersion
    /// `encoded` or `acx`.
    package var role: String
    /// The object's key in the store.
    package var key: String
    package var fileExtension: String
    package var sha256: String
    package var bytes: Int
    package var durationMs: Int?
    package var sampleRate: Int?
    package var frames: Int?

    package init(
        role: String, key: String, fileExtension: String, sha256: String, bytes: Int, durationMs: Int?,
        sampleRate: Int?, frames: Int?
    ) {
        self.role = role
        self.key = key
        self.fileExtension = fileExtension
        self.sha256 = sha256
        self.bytes = bytes
        self.durationMs = durationMs
        self.sampleRate = sampleRate
        self.frames = frames
    }

    /// Where the entry of the object `key` (of `role`) made from audio files of `audioDigests` is filed.
    package static func actionKey(role: String, key: String, audioDigests: [String]) -> String {
        ObjectKey.digest([
            "cache": formatName, "version": String(currentVersion), "role": role, "key": key,
            "audio": audioDigests.joined(separator: ","),
        ])
    }

    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Whether the entry could be the object `key` of `role`: its own names, a digest, a size in range.
    package func fits(role expectedRole: String, key expectedKey: String) -> Bool {
        format == Self.formatName && version == Self.currentVersion && role == expectedRole && key == expectedKey
            && sha256.count == 64 && sha256.allSatisfy(\.isHexDigit) && (1...(4 << 30)).contains(bytes)
            && fileExtension.count <= 8 && fileExtension.allSatisfy { $0.isLetter || $0.isNumber }
    }
}
