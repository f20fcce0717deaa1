/// A stretch of a narration aligned on its own (``NarrationAligner`` aligns segments side by
/// side): its words, and the 16 kHz samples of the recording they are looked for in.
struct NarrationSegment: Sendable, Equatable {
    var words: Range<Int>
    var samples: Range<Int>
}
