/// How a narration is aligned to its text.
package enum NarrationMethod: String, Sendable, CaseIterable {
    /// Forge reads the text itself and warps that reading onto the recording; the acoustic model
    /// examines only the stretches where that cannot settle it (``WarpedNarrationAligner``).
    case warp
    /// The acoustic model hears the whole recording, window by window (``NarrationAligner``).
    case windows
}
