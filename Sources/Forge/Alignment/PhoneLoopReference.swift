/// What the acoustic model makes of a stretch of audio with no text to follow: the best path of
/// a phone loop (any phone after any other), as a score per 10 ms frame and the frames it heard
/// as speech rather than silence or noise.
///
/// A forced path through the same frames scores close to the phone loop where its words were
/// spoken, and far below it where they were not: that difference per frame (a word's *fit*) is
/// what tells a right text from a wrong one, which a word's duration alone does not.
struct PhoneLoopReference {
    /// The phone loop's acoustic score of each frame, in the decoder's log units.
    var frameScores: [Double]
    /// Whether each frame lies in a speech phone (not silence or one of the model's noise fillers).
    var speech: [Bool]

    /// A reference of these frames (taken from references of longer audio).
    init(frameScores: [Double], speech: [Bool]) {
        self.frameScores = frameScores
        self.speech = speech
    }

    /// The reference for `samples` (16 kHz), decoded with `decoder`'s phone-loop search.
    init(samples: ArraySlice<Int16>, decoder: PocketSphinxDecoder) throws(RecognitionError) {
        let frames = samples.count / (PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond) + 1
        frameScores = [Double](repeating: 0, count: frames)
        speech = [Bool](repeating: false, count: frames)
        try decoder.usePhoneLoop()
        for segment in try decoder.decode(samples, posteriors: false) {
            let first = max(0, segment.startFrame)
            let last = min(frames - 1, segment.endFrame)
            guard first <= last else { continue }
            let perFrame = segment.acousticScore / Double(segment.endFrame - segment.startFrame + 1)
            let spoken = !(segment.word == "SIL" || segment.word.hasPrefix("+"))
            for frame in first...last {
                frameScores[frame] = perFrame
                speech[frame] = spoken
            }
        }
    }

    /// The reference of the frames in `range` alone, renumbered from 0: for a search of part of
    /// the audio this reference was made for.
    func frames(_ range: Range<Int>) -> PhoneLoopReference {
        let range = range.clamped(to: 0..<frameScores.count)
        var part = self
        part.frameScores = Array(frameScores[range])
        part.speech = Array(speech[range])
        return part
    }

    /// How well a forced word scoring `score` over `frames` fits against the phone loop, per
    /// frame: about 0 or above where the word was spoken, several units below where it was not.
    func fit(score: Double, frames: ClosedRange<Int>) -> Double {
        let first = max(0, frames.lowerBound)
        let last = min(frameScores.count - 1, frames.upperBound)
        guard first <= last else { return 0 }
        var reference = 0.0
        for frame in first...last { reference += frameScores[frame] }
        return (score - reference) / Double(frames.count)
    }
}
