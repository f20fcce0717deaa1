/// What a narration's import reports as it goes, for a progress line or JSON Lines: each phase
/// that takes more than a moment on a long audiobook (its tracks joined, the recording read for
/// the recognizer, aligned, cut into the items' pieces and exported).
package enum NarrationProgress: Sendable, Equatable {
    /// The recording's files are being joined into one: `joined` of `files` are in.
    case joining(joined: Int, files: Int)
    /// The recording is being read for the recognizer: the share read, 0–1.
    case reading(Double)
    /// The recording is being aligned to the text: the share done, 0–1 (windows done are kept).
    case aligning(Double)
    /// The recording is being cut into the items' pieces: the share of the items done, 0–1.
    case cutting(Double)
    /// The exports are being written (the synced EPUB): as an export reports its progress.
    case exporting(ExportProgress)
}
