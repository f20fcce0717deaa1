/// The phone loop of one narration segment (see ``PhoneLoopReference``), decoded once in fixed
/// chunks counted from the segment's start, for windows to take their frames from.
///
/// Consecutive windows overlap (each starts at the last confident word before the one before
/// ended), and a phone loop per window decoded the overlap again. The chunks are decoded in
/// order as the windows reach them, by the segment's own decoder, so they depend on the segment
/// alone, never on the thread it runs on. (A decoder's loop also depends on what it decoded
/// before, its noise and mean estimates going on: a resumed run's decoder starts at the
/// checkpoint's chunk, as it started at the checkpoint's window before.) A chunk is dropped once
/// the windows have moved past it: they never go back.
final class SegmentPhoneLoop {
    private let aligner: ForcedAligner
    private let samples: RecognizerAudio
    private let origin: Int
    private let end: Int
    private var chunks: [Int: PhoneLoopReference] = [:]

    /// Frames one chunk holds: a window's length, so a window spans at most two.
    static let chunkFrames = 60 * PocketSphinxDecoder.framesPerSecond

    private static let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond

    /// The phone loop of `samples` from `range.lowerBound` (the segment's first sample) up to
    /// `range.upperBound`, decoded with `aligner`'s phone-loop decoder.
    init(aligner: ForcedAligner, samples: RecognizerAudio, range: Range<Int>) {
        self.aligner = aligner
        self.samples = samples
        origin = range.lowerBound
        end = min(range.upperBound, samples.count)
    }

    /// The reference of the samples in `range` (16 kHz, inside the segment), renumbered from 0
    /// as ``PhoneLoopReference/init(samples:decoder:)`` numbers a reference of those samples:
    /// one frame per 10 ms and one more for the samples left over. A range that does not start
    /// on the chunks' frame grid takes the frame it starts in.
    func reference(_ range: Range<Int>) throws(RecognitionError) -> PhoneLoopReference {
        let count = range.count / Self.samplesPerFrame + 1
        let first = max(0, range.lowerBound - origin) / Self.samplesPerFrame
        var frameScores: [Double] = []
        var speech: [Bool] = []
        frameScores.reserveCapacity(count)
        speech.reserveCapacity(count)
        var frame = first
        while frameScores.count < count {
            let index = frame / Self.chunkFrames
            let chunk = try self.chunk(index)
            let offset = frame - index * Self.chunkFrames
            guard offset < chunk.frameScores.count else {
                // Past the segment's audio: nothing heard, as a reference of these samples has.
                frameScores.append(0)
                speech.append(false)
                frame += 1
                continue
            }
            let taken = min(chunk.frameScores.count - offset, count - frameScores.count)
            frameScores += chunk.frameScores[offset..<(offset + taken)]
            speech += chunk.speech[offset..<(offset + taken)]
            frame += taken
        }
        // Chunks the windows have passed are not asked for again.
        for index in chunks.keys where index < first / Self.chunkFrames { chunks[index] = nil }
        return PhoneLoopReference(frameScores: frameScores, speech: speech)
    }

    private func chunk(_ index: Int) throws(RecognitionError) -> PhoneLoopReference {
        if let chunk = chunks[index] { return chunk }
        let start = origin + index * Self.chunkFrames * Self.samplesPerFrame
        let stop = min(end, start + Self.chunkFrames * Self.samplesPerFrame)
        var chunk =
            start < stop
            ? try aligner.phoneLoop(samples.samples(start..<stop)[...])
            : PhoneLoopReference(frameScores: [], speech: [])
        // A reference's last frame holds the samples left over; where a chunk follows, its
        // first frame holds them whole.
        if stop < end { chunk = chunk.frames(0..<Self.chunkFrames) }
        chunks[index] = chunk
        return chunk
    }
}
