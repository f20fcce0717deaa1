import Foundation

/// Transcribes audio with pocketsphinx and a language model built from the book: the audio is
/// cut into utterances at silences and each is decoded on its own (with batch cepstral
/// normalisation, so no state carries from one chunk to the next).
///
/// One transcriber owns one decoder and is used by one thread at a time.
final class ChunkTranscriber {
    /// pocketsphinx's search settings, measured on chapters 1–3 of the shared corpus with chapter
    /// models (word error rate, CPU seconds per second of audio): its defaults 6.5%, 0.117;
    /// without the second, flat-lexicon pass 6.2%, 0.069; and acoustic scores computed for every
    /// other frame (`-ds 2`) 6.9%, 0.053. `-topn 2` (8.8%), narrower beams (8.9%), `-maxwpf 10`,
    /// `-maxhmmpf` or `-pl_window` cost accuracy or gained nothing. With a model of each chunk's
    /// own text (chapters 1–6, verify's wall time and word error rate): 29.2 s, 5.9%; three
    /// Gaussians a codebook (`-topn 3`, the acoustic scoring that is 69% of the time) 25.8 s,
    /// 7.5%; `-topn 2` 23.0 s, 9.6%; `-ds 3` 25.9 s, 9.5% and clean items flagged; beams of
    /// 1e-40 28.0 s, 7.4%, of 1e-30 24.5 s, 17.4%. A model of the chunk's own text can be trusted
    /// more than pocketsphinx's default language weight (6.5) does: `-lw 9` 24.4 s, 6.3% (against
    /// 27.1 s, 7.5% in the same run), `-lw 12` 22.8 s and a clean item flagged.
    static let decoderOptions = ["-fwdflat": "no", "-ds": "2", "-topn": "3", "-lw": "9"]
    /// A pause at least this long ends an utterance.
    static let minimumPauseMs = 250

    private let decoder: PocketSphinxDecoder

    private var languageModel: URL?

    /// `model` should carry a dictionary of the book's words only (``PronouncingDictionary``):
    /// pocketsphinx maps every dictionary word into each language model it loads.
    init(model: RecognizerModel) throws(RecognitionError) {
        decoder = try PocketSphinxDecoder(model: model, options: Self.decoderOptions)
    }

    /// The words heard in `samples` (16 kHz), grouped by utterance, times relative to the slice;
    /// nil when `cancellation` is set before the last utterance (checked between utterances, a
    /// few hundred milliseconds of decoding each).
    func transcribe(_ samples: ArraySlice<Int16>, languageModel: URL, cancellation: CancellationFlag? = nil) throws(RecognitionError) -> [[RecognizedWord]]? {
        if languageModel != self.languageModel {
            try decoder.useLanguageModel(at: languageModel)
            self.languageModel = languageModel
        }
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        var utterances: [[RecognizedWord]] = []
        for range in Self.utterances(in: samples) {
            if cancellation?.isCancelled == true { return nil }
            let offsetMs = (range.lowerBound - samples.startIndex) * 1000 / PocketSphinxDecoder.sampleRate
            let segments = try decoder.decode(samples[range], posteriors: false)
            let words = segments.filter { !ForcedAligner.isFiller(ForcedAligner.baseWord($0.word)) }.map {
                RecognizedWord(text: ForcedAligner.baseWord($0.word), startMs: offsetMs + $0.startFrame * frameMs, endMs: offsetMs + ($0.endFrame + 1) * frameMs)
            }
            if !words.isEmpty { utterances.append(words) }
        }
        return utterances
    }

    /// Stretches of sound between pauses of at least ``minimumPauseMs``, by frame energy against
    /// a threshold set from the quietest frames (digital silence or a room's noise floor).
    static func utterances(in samples: ArraySlice<Int16>) -> [Range<Int>] {
        let frame = PocketSphinxDecoder.sampleRate / 100
        guard samples.count > frame else { return samples.isEmpty ? [] : [samples.indices] }
        var energies: [Double] = []
        var index = samples.startIndex
        while index < samples.endIndex {
            let end = min(index + frame, samples.endIndex)
            var sum = 0.0
            for sample in samples[index..<end] { sum += Double(sample) * Double(sample) }
            energies.append((sum / Double(end - index)).squareRoot())
            index = end
        }
        let sorted = energies.sorted()
        let floor = sorted[sorted.count / 10]
        let threshold = max(floor * 4, 60)
        let minimumPause = minimumPauseMs / 10
        var ranges: [Range<Int>] = []
        var start: Int?
        var quiet = 0
        for (position, energy) in energies.enumerated() {
            if energy >= threshold {
                if start == nil { start = max(0, position - 10) }
                quiet = 0
            } else if let begin = start {
                quiet += 1
                if quiet >= minimumPause {
                    let end = position - quiet + 10
                    ranges.append((samples.startIndex + begin * frame)..<min(samples.endIndex, samples.startIndex + end * frame))
                    start = nil
                    quiet = 0
                }
            }
        }
        if let begin = start { ranges.append((samples.startIndex + begin * frame)..<samples.endIndex) }
        return ranges
    }
}
