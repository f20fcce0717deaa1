import Foundation

/// Transcribes audio with pocketsphinx: the audio is cut into utterances at silences and each is
/// decoded on its own (with batch cepstral normalisation). Each call decodes with a decoder of
/// its own: a decoder's results depend on what it decoded before (its Gaussian selection and
/// search carry state from one utterance to the next, moving words by a frame), so a decoder
/// kept by a thread would make a chunk's transcript depend on which thread took it. An utterance is first aligned to the words the text puts there (a word sequence
/// any word of which may be passed over, at a price); only when a word is not found is it
/// transcribed freely with the chunk's language model, which then says what was heard instead.
///
/// A transcriber is used by one thread at a time.
final class ChunkTranscriber {
    /// A word the text says, where the synthesizer put it (from the chunk's start).
    struct ExpectedWord {
        /// Its dictionary spelling (``TranscriptNormalizer``).
        var token: String
        var startMs: Int
    }

    /// What was heard in a chunk.
    struct Transcript {
        /// The words heard, grouped by utterance, times relative to the chunk.
        var utterances: [[RecognizedWord]] = []
        /// Utterances whose every expected word was found by alignment.
        var aligned = 0
        /// Utterances transcribed with the language model (a word not found, or none expected).
        var decoded = 0

        /// The transcript with its times moved by `offsetMs`, and only the words whose middle then
        /// lies in `kept` (what was heard in the chunk, of utterances heard around it), their times
        /// held inside it (a word the chunk's cut runs through belongs to the side its middle is on).
        func shifted(by offsetMs: Int, keeping kept: Range<Int>) -> Transcript {
            var moved = self
            moved.utterances = utterances.map { words in
                words.map { RecognizedWord(text: $0.text, startMs: $0.startMs + offsetMs, endMs: $0.endMs + offsetMs) }
                    .filter { kept.contains(($0.startMs + $0.endMs) / 2) }
                    .map {
                        RecognizedWord(
                            text: $0.text, startMs: max(kept.lowerBound, $0.startMs),
                            endMs: min(kept.upperBound, $0.endMs))
                    }
            }.filter { !$0.isEmpty }
            return moved
        }
    }

    /// pocketsphinx's search settings, the fastest that keep the word error rate and flag no clean
    /// item: no second, flat-lexicon pass; acoustic scores for every other frame; three Gaussians
    /// a codebook; a language weight above the default, as a model of the chunk's own text can be
    /// trusted more. How each was chosen: docs/benchmarks.md, "Calibrations".
    static let decoderOptions = ["-fwdflat": "no", "-ds": "2", "-topn": "3", "-lw": "9"]
    /// A pause at least this long ends an utterance.
    static let minimumPauseMs = 250
    /// The price of passing over an expected word in alignment: dearer leaves fewer utterances to
    /// the language model, until the skips fall outside the beam and the path is lost; cheaper
    /// skips pass over short words ("but", "chapter") that were spoken.
    static let skipProbability = 1e-40
    /// The price of ending an utterance before its last expected word: small, so a chunk's cut
    /// through a word or audio that stops short is a word not found, not a word squeezed in.
    static let stopProbability = 1e-30
    /// An utterance expects the words the synthesizer started within this margin of its ends.
    static let expectedMarginMs = 150

    private let model: RecognizerModel

    /// `model` should carry a dictionary of the book's words only (``PronouncingDictionary``):
    /// pocketsphinx maps every dictionary word into each language model it loads.
    init(model: RecognizerModel) throws(RecognitionError) {
        self.model = model
    }

    /// What was heard in `samples` (16 kHz): each utterance aligned to the `expected` words
    /// within it, or transcribed with the model at `languageModel` when one is not found; nil when
    /// `cancellation` is set before the last utterance (checked between utterances, a few hundred
    /// milliseconds of decoding each). With `within` (milliseconds of `samples`), only the
    /// utterances that reach into it, each whole.
    func transcribe(
        _ samples: ArraySlice<Int16>, within: Range<Int>? = nil, expected: [ExpectedWord], languageModel: URL,
        cancellation: CancellationFlag? = nil
    ) throws(RecognitionError) -> Transcript? {
        var transcript = Transcript()
        let decoder = try PocketSphinxDecoder(model: model, options: Self.decoderOptions)
        for range in Self.utterances(in: samples) {
            if cancellation?.isCancelled == true { return nil }
            let startMs = (range.lowerBound - samples.startIndex) * 1000 / PocketSphinxDecoder.sampleRate
            let endMs = (range.upperBound - samples.startIndex) * 1000 / PocketSphinxDecoder.sampleRate
            if let within, endMs <= within.lowerBound || startMs >= within.upperBound { continue }
            let tokens =
                expected
                .filter { $0.startMs >= startMs - Self.expectedMarginMs && $0.startMs < endMs + Self.expectedMarginMs }
                .map(\.token).filter { decoder.pronunciation(of: $0) != nil }
            var words: [RecognizedWord] = []
            if !tokens.isEmpty {
                try decoder.useWordSequence(
                    tokens, stopProbability: Self.stopProbability, skipProbability: Self.skipProbability)
                words = try Self.heard(in: samples[range], offsetMs: startMs, by: decoder)
            }
            if tokens.isEmpty || words.count < tokens.count {
                try decoder.useLanguageModel(at: languageModel)
                let decoded = try Self.heard(in: samples[range], offsetMs: startMs, by: decoder)
                // The words alignment found, and what the free decode heard elsewhere: a word the
                // alignment passed over (eye dialect, "an'") sends the utterance to the decoder,
                // which can garble the words around it ("aye an to and so i so ye saw"); the words
                // alignment found are there. Wrong audio has few words for alignment to find.
                words = Self.merged(aligned: words, decoded: decoded)
                transcript.decoded += 1
            } else {
                transcript.aligned += 1
            }
            if !words.isEmpty { transcript.utterances.append(words) }
        }
        return transcript
    }

    /// The aligned words, and the decoded words that overlap none of them, in time order.
    static func merged(aligned: [RecognizedWord], decoded: [RecognizedWord]) -> [RecognizedWord] {
        guard !aligned.isEmpty else { return decoded }
        let outside = decoded.filter { word in !aligned.contains { $0.startMs < word.endMs && word.startMs < $0.endMs }
        }
        return (aligned + outside).sorted { $0.startMs < $1.startMs }
    }

    /// The words (not fillers) the active search finds in one utterance.
    private static func heard(in samples: ArraySlice<Int16>, offsetMs: Int, by decoder: PocketSphinxDecoder)
        throws(RecognitionError) -> [RecognizedWord]
    {
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        return try decoder.decode(samples, posteriors: false).filter {
            !ForcedAligner.isFiller(ForcedAligner.baseWord($0.word))
        }.map {
            RecognizedWord(
                text: ForcedAligner.baseWord($0.word), startMs: offsetMs + $0.startFrame * frameMs,
                endMs: offsetMs + ($0.endFrame + 1) * frameMs)
        }
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
                    ranges.append(
                        (samples.startIndex + begin * frame)..<min(samples.endIndex, samples.startIndex + end * frame))
                    start = nil
                    quiet = 0
                }
            }
        }
        if let begin = start { ranges.append((samples.startIndex + begin * frame)..<samples.endIndex) }
        return ranges
    }
}
