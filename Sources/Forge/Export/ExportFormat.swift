/// A file type `forge export` derives from the manifest.
package enum ExportFormat: String, Sendable, CaseIterable, Codable {
    /// One audio file per chapter: its items joined with pauses.
    case audio
    /// Word timings per item and per chapter (chapter-absolute), see `docs/exports.md`.
    case json
    /// WebVTT captions per chapter, one cue per sentence (or part of a long one).
    case vtt
    /// SubRip captions, the same cues as WebVTT.
    case srt
    /// An EPUB 3 with media overlays (SMIL) over the chapter audio.
    case epub
    /// A read-along HTML page per chapter that works opened straight from disk.
    case html
    /// One M4B audiobook: AAC, chapter marks, title, author, narrator, cover (needs ffmpeg).
    case m4b
    /// One MP3 per chapter at ACX's settings (192 kbps CBR, 44.1 kHz), mastered to ACX (needs ffmpeg).
    case acx
}
