/// What a narration's import reports as it goes, for a progress line or JSON Lines: each phase
/// that takes more than a moment on a long audiobook (a 63-hour one's 255 tracks joined in
/// minutes, then read for the recognizer).
package enum NarrationProgress: Sendable, Equatable {
    /// The recording's files are being joined into one: `joined` of `files` are in.
    case joining(joined: Int, files: Int)
    /// The recording is being read for the recognizer: the share read, 0–1.
    case reading(Double)
    /// The recording is being aligned to the text: the share done, 0–1 (windows done are kept).
    case aligning(Double)
}
