/// An immutable file in the content-addressed store, as recorded in the manifest's `objects` table.
package struct StoredObject: Sendable, Equatable, Codable {
    /// What an object holds.
    package enum Role: String, Sendable, Codable {
        case audio
        case events
        /// Word timings from forced alignment (``AlignmentDocument``).
        case alignment
        /// A chapter encoded for delivery (AAC frames shared by the M4B and the EPUB): made by
        /// exports, kept while the chapter's audio stays the same.
        case encoded
    }

    package var key: String
    /// Path relative to the output directory: `objects/<2 hex>/<62 hex>.<ext>`.
    package var path: String
    package var role: Role
    package var bytes: Int
    /// SHA-256 of the file's bytes (the key is of its inputs).
    package var sha256: String
    package var mimeType: String
    package var durationMs: Int?
    package var sampleRate: Int?
    /// An audio object's length in samples, as decoding it gives (recorded for lossless audio when
    /// it is made, or once read from its header), so laying out a chapter reads no audio files.
    package var frames: Int?

    package init(
        key: String, path: String, role: Role, bytes: Int, sha256: String, mimeType: String,
        durationMs: Int? = nil, sampleRate: Int? = nil, frames: Int? = nil
    ) {
        self.frames = frames
        self.key = key
        self.path = path
        self.role = role
        self.bytes = bytes
        self.sha256 = sha256
        self.mimeType = mimeType
        self.durationMs = durationMs
        self.sampleRate = sampleRate
    }
}
