/// What the narration-align stage returns: where every word of the text is in the recording,
/// and how the recording ended.
struct AlignedNarration: Sendable {
    let narration: NarrationAlignment
    /// The alignment object's key and its record in the store.
    let key: String
    let document: StoredObject
    /// False when the whole alignment came from the store.
    let realigned: Bool
    /// Where an interrupted run of the same alignment was resumed.
    let resumedFromMs: Int?
    /// How much of the recording the acoustic model decoded, when this run aligned it by warping.
    let examinedMs: Int?
    let sampleRate: Int
    let frames: Int
    var durationMs: Int { NarrationImport.milliseconds(frames, rate: sampleRate) }
    let warnings: [Diagnostic]
}
