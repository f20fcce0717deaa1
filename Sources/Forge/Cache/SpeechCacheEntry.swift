import Foundation

/// The remote cache's entry for one item's speech, stored at `ac/{actionKey}`: the digests of
/// the audio and events objects that the item's audio key stands for, and what the audio measures
/// (``ItemSignal``), so a build can lay out, screen and key its chapters without downloading the
/// audio (docs/remote-cache.md, "build without the bytes"). Word timings are not in it: they follow
/// from the events and the item's text, which the downloading build has.
///
/// JSON, not Bazel's `ActionResult` protobuf: bazel-remote must run with
/// `--disable_http_ac_validation` (docs/remote-cache.md).
package struct SpeechCacheEntry: Codable, Sendable, Equatable {
    package static let formatName = "forge-speech"
    package static let currentVersion = 2

    /// One blob the entry points to.
    package struct Blob: Codable, Sendable, Equatable {
        /// SHA-256 of the bytes: the blob's address under `cas/`.
        package var sha256: String
        package var bytes: Int
    }

    package var format: String
    package var version: Int
    /// The content key of the audio (its inputs); the entry is filed under ``actionKey(audioKey:)`` of it.
    package var audioKey: String
    /// The voice that spoke it (the recipe's or its fallback), as a voice URI.
    package var voice: String
    package var audioExtension: String
    package var audio: Blob
    package var events: Blob
    /// The audio's measures, its length in samples among them (version 2).
    package var signal: ItemSignal

    package init(audioKey: String, voice: String, audioExtension: String, audio: Blob, events: Blob, signal: ItemSignal)
    {
        format = Self.formatName
        version = Self.currentVersion
        self.audioKey = audioKey
        self.voice = voice
        self.audioExtension = audioExtension
        self.audio = audio
        self.events = events
        self.signal = signal
    }

    /// Where the entry of `audioKey` is filed: a key of its own, so the entry's format can change
    /// without colliding with entries an older forge wrote, or with anything else in a shared cache.
    package static func actionKey(audioKey: String) -> String {
        ObjectKey.digest(["cache": formatName, "version": String(currentVersion), "audio": audioKey])
    }

    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
