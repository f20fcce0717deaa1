/// What the narration-cut stage returns: the items the recording holds (each now with its piece
/// of the recording and its words' timings) and the words not clearly heard.
struct NarrationPieces: Sendable {
    let keptItems: Int
    let unheard: [NarrationReport.UnheardWord]
}
