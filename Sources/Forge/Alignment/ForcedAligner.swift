/// Word timings for audio that has no synthesizer events, by forced alignment: pocketsphinx
/// decodes the audio against a JSGF grammar of exactly the item's words.
///
/// Words the dictionary lacks get a pronunciation from espeak-ng mapped to ARPAbet. A word the
/// recognizer cannot place (no pronunciation, or the search ended before it) is interpolated
/// between its neighbours by character count, so every word gets a non-empty timing, increasing,
/// inside the audio; `placed` says which words were heard.
///
/// An aligner owns one decoder and is used by one task at a time. Its results depend on what it
/// aligned before (pocketsphinx carries state from one utterance to the next), so where an
/// output must depend on its inputs alone, each gets a fresh aligner (``ForcedAlignmentPool``).
package final class ForcedAligner {
    /// Bump when a change alters what the aligner produces; it is part of every alignment key.
    package static let version = "forced-2"

    /// Search settings: beams far wider than pocketsphinx's defaults, which lose the path on many
    /// items in espeak-ng's default voice (so do beams of 1e-80); a low silence probability keeps
    /// pauses from swallowing words.
    static let decoderOptions = [
        "-beam": "1e-200", "-wbeam": "1e-180", "-pbeam": "1e-200", "-maxhmmpf": "-1", "-silprob": "0.0001",
    ]

    private let decoder: PocketSphinxDecoder
    private let pronouncer: Pronouncer
    private let fillers: Bool
    package let model: RecognizerModel
    /// The gate this aligner's searches pass through, shared with the aligners working beside it:
    /// its large searches (``locate(_:in:reference:afterOtherSpeech:)``, ``place(_:in:openEnded:allowSkips:reference:)``
    /// allowing skips) run alone, each one's memory handed back before the next search starts.
    var searchGate: SearchGate?

    /// - Parameter fillers: let pocketsphinx place its noise fillers between words. Off for
    ///   narration windows, whose open end would let `[SPEECH]` swallow whole sentences; pauses
    ///   are then an explicit silence word.
    package init(model: RecognizerModel = .standard, language: String = "en-us", fillers: Bool = true)
        throws(RecognitionError)
    {
        try model.checkAvailable()
        guard model.supports(language: language) else { throw .unsupportedLanguage(language) }
        self.model = model
        var options = Self.decoderOptions
        if !fillers { options["-fsgusefiller"] = "no" }
        decoder = try PocketSphinxDecoder(model: model, options: options)
        pronouncer = Pronouncer(language: language)
        self.fillers = fillers
        if !fillers {
            guard decoder.addWord(Self.pauseWord, phones: "SIL") else {
                throw .decoderFailed("the acoustic model has no SIL phone")
            }
        }
    }

    /// A dictionary word for a pause, used when pocketsphinx's fillers are off.
    static let pauseWord = "forge-pause"

    /// The phone-loop reference of `samples` (16 kHz), for ``place(_:in:openEnded:allowSkips:reference:)``.
    func phoneLoop(_ samples: ArraySlice<Int16>) throws(RecognitionError) -> PhoneLoopReference {
        if phoneLoopDecoder == nil {
            phoneLoopDecoder = try PocketSphinxDecoder(model: model, options: Self.phoneLoopOptions)
        }
        let decoder = phoneLoopDecoder!
        return try searching(alone: false) { () throws(RecognitionError) in
            try PhoneLoopReference(samples: samples, decoder: decoder)
        }
    }

    /// `search` through ``searchGate`` when there is one: alone (its memory handed back before
    /// the gate opens again), or beside the other aligners' ordinary searches.
    private func searching<Result>(
        alone: Bool, _ search: () throws(RecognitionError) -> Result
    ) throws(RecognitionError) -> Result {
        guard let searchGate else { return try search() }
        guard alone else { return try searchGate.beside(search) }
        return try searchGate.alone { () throws(RecognitionError) in
            defer { MemoryTrim.release() }
            return try search()
        }
    }

    /// A second decoder for phone loops, of context-independent phones with pocketsphinx's own
    /// beams: a loop of all triphones with the alignment's beams would take gigabytes and seconds
    /// per second of audio.
    private var phoneLoopDecoder: PocketSphinxDecoder?

    /// The phone loop scores its Gaussians every other frame (`-ds 2`): it was half of a
    /// narration's time, and the reference it gives is a little more forgiving, which cut false
    /// "text not in the recording" spans on a clean reading (10 chapters: 42 → 19) without
    /// letting another text pass. Every fourth frame (`-ds 4`) was a quarter faster again, but
    /// did let another text pass: on the LibriVox reading, another text's words fit up to −0.6
    /// (p90; −1.8 at `-ds 2`) while the right text's lowest fit −1.2, and a skipped page's words
    /// were heard in the speech after it.
    static let phoneLoopOptions = ["-allphone_ci": "yes", "-ds": "2"]

    /// What identifies this aligner's output in cache keys.
    package var identity: String { Self.identity(model: model) }

    /// What identifies the output of an aligner using `model`.
    package static func identity(model: RecognizerModel) -> String {
        let options = decoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        return "\(version)/\(options)/\(model.fingerprint)"
    }

    /// Aligns `words` (in reading order, with character offsets) to `audio`.
    package func align(words: [WordToken], audio: DecodedAudio) throws(RecognitionError) -> ForcedAlignment {
        let samples = RecognizerInput.samples(audio.samples[...], from: audio.sampleRate)
        let placements = try place(words.map(\.text), in: samples[...])
        return ForcedAlignment.complete(words: words, placements: placements, durationMs: audio.durationMs)
    }

    /// Where each word of `texts` lies in `samples` (16 kHz), relative to the slice's start, or nil
    /// for a word the search did not reach or could not pronounce. With `openEnded`, the audio
    /// may end after any word (``NarrationAligner``'s windows hold more words than they need).
    /// With `allowSkips` (narration decoders only), words may be passed over; they come back nil.
    /// With a phone-loop `reference` of the same samples, each placement carries its fit.
    func place(
        _ texts: [String], in samples: ArraySlice<Int16>, openEnded: Bool = false, allowSkips: Bool = false,
        reference: PhoneLoopReference? = nil
    ) throws(RecognitionError) -> [WordPlacement?] {
        let entries = entries(for: texts, in: decoder)
        var placements = [WordPlacement?](repeating: nil, count: texts.count)
        guard !entries.isEmpty, !samples.isEmpty else { return placements }
        let (decoder, fillers) = (decoder, fillers)
        let segments = try searching(alone: allowSkips) { () throws(RecognitionError) in
            if !fillers {
                try decoder.useWordSequence(
                    entries.map(\.key), stopProbability: openEnded ? Self.stopProbability : nil,
                    skipProbability: allowSkips ? Self.skipProbability : nil, pause: (Self.pauseWord, 0.1))
            } else {
                try decoder.useGrammar(Self.grammar(entries.map(\.key)))
            }
            defer { decoder.releaseWordSearch() }
            return try decoder.decode(samples, posteriors: false)
        }
        var next = 0
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        var previousEndMs = 0
        for segment in segments where next < entries.count {
            let word = Self.baseWord(segment.word)
            guard !Self.isFiller(word) else {
                previousEndMs = max(previousEndMs, segment.startFrame * frameMs)
                continue
            }
            // The grammar is a straight sequence, so the path's words are the entries in order
            // (some passed over when skips are allowed).
            guard
                let found = entries[next...].prefix(allowSkips ? entries.count : 1).firstIndex(where: { $0.key == word }
                )
            else { break }
            next = found
            var start = segment.startFrame * frameMs
            if let closure = Self.closureMs[entries[next].phones.first ?? ""] {
                start = max(previousEndMs, start - closure)
            }
            let end = (segment.endFrame + 1) * frameMs
            let confidence = Self.durationConfidence(
                frames: segment.endFrame - segment.startFrame + 1, phones: entries[next].phones.count)
            let fit = reference?.fit(score: segment.acousticScore, frames: segment.startFrame...segment.endFrame)
            placements[entries[next].index] = WordPlacement(
                startMs: start, endMs: end, confidence: confidence, fit: fit)
            previousEndMs = end
            next += 1
        }
        return placements
    }

    /// Where the speech of `samples` (16 kHz) lies in `texts`, which it may start anywhere in:
    /// the placements of the words the path went through (nil elsewhere), or all nil when the
    /// path's words occur more than once in `texts` (the place is not known) or nowhere.
    /// Searched with narrower beams than a window's (``locatingOptions``): a text of thousands of
    /// words entered anywhere would otherwise keep all of them alive.
    /// With `afterOtherSpeech`, the path may begin with any speech (a phone loop; the start of a
    /// recording, an intro before the text), which costs as much again as the text is long.
    func locate(
        _ texts: [String], in samples: ArraySlice<Int16>, reference: PhoneLoopReference, afterOtherSpeech: Bool = false
    ) throws(RecognitionError) -> [WordPlacement?] {
        if locatingDecoder == nil {
            var options = Self.locatingOptions
            if !fillers { options["-fsgusefiller"] = "no" }
            let decoder = try PocketSphinxDecoder(model: model, options: options)
            guard decoder.addWord(Self.pauseWord, phones: "SIL") else {
                throw .decoderFailed("the acoustic model has no SIL phone")
            }
            for phone in Self.phones { _ = decoder.addWord(Self.phoneWordPrefix + phone, phones: phone) }
            locatingDecoder = decoder
        }
        let decoder = locatingDecoder!
        let entries = entries(for: texts, in: decoder)
        var placements = [WordPlacement?](repeating: nil, count: texts.count)
        guard entries.count > 1, !samples.isEmpty else { return placements }
        let path = try searching(alone: true) { () throws(RecognitionError) in
            try decoder.useWordSequence(
                entries.map(\.key), stopProbability: Self.stopProbability, pause: (Self.pauseWord, 0.1),
                startsAnywhere: true,
                leading: afterOtherSpeech
                    ? (Self.phones.map { Self.phoneWordPrefix + $0 }, Self.leadingPhoneProbability) : nil)
            defer { decoder.releaseWordSearch() }
            return try decoder.decode(samples, posteriors: false).filter { !Self.isFiller(Self.baseWord($0.word)) }
        }
        guard !path.isEmpty else { return placements }
        // The grammar is a straight sequence entered anywhere: the path is a run of entries.
        let keys = path.map { Self.baseWord($0.word) }
        var first: Int?
        for start in 0...max(0, entries.count - keys.count) where entries[start].key == keys[0] {
            guard keys.indices.allSatisfy({ start + $0 < entries.count && entries[start + $0].key == keys[$0] }) else {
                continue
            }
            guard first == nil else { return placements }
            first = start
        }
        guard let first else { return placements }
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        for (offset, segment) in path.enumerated() {
            let entry = entries[first + offset]
            let end = (segment.endFrame + 1) * frameMs
            placements[entry.index] = WordPlacement(
                startMs: segment.startFrame * frameMs, endMs: end,
                confidence: Self.durationConfidence(
                    frames: segment.endFrame - segment.startFrame + 1, phones: entry.phones.count),
                fit: reference.fit(score: segment.acousticScore, frames: segment.startFrame...segment.endFrame))
        }
        return placements
    }

    /// The words of `texts` `decoder` can pronounce (added to its dictionary where it lacked
    /// them), with their places in `texts`, dictionary keys and phones.
    private func entries(for texts: [String], in decoder: PocketSphinxDecoder) -> [(
        index: Int, key: String, phones: [String]
    )] {
        texts.enumerated().compactMap { index, text in
            pronouncer.entry(for: text, in: decoder).map { (index, $0.key, $0.phones) }
        }
    }

    /// A third decoder, for ``locate(_:in:reference:)``.
    private var locatingDecoder: PocketSphinxDecoder?

    /// Beams for locating: pocketsphinx's defaults (1e-48) lose the path and end nowhere in the
    /// grammar. Word exits get a wider beam than the rest: with the same one, no exit into the
    /// final state (an early stop costs 1e-30) survives on some cuts, whose searches come back
    /// empty. At most 10,000 HMMs are active, so two searches side by side among thousands of
    /// words stay within the sync's memory.
    static let locatingOptions = [
        "-beam": "1e-80", "-wbeam": "1e-120", "-pbeam": "1e-80", "-maxhmmpf": "10000", "-maxwpf": "20",
        "-silprob": "0.0001",
    ]

    /// How much earlier than the recognizer's boundary a word starting with a voiceless stop
    /// begins: the recognizer puts the silent closure before the burst in the pause or the
    /// previous word, while the word (and the synthesizer's own event) starts with the closure.
    /// Measured on espeak-ng audio of the sample chapters.
    static let closureMs = ["T": 30, "K": 30, "CH": 30, "P": 15]

    /// How sure the aligner is that it heard a word, from how long it lasts: a grammar forces
    /// every word into the path, so a word that is not in the audio gets squeezed to the
    /// minimum of three 10 ms frames per phone (0), while spoken words take six or more (1).
    /// pocketsphinx's posteriors are always 1 on a single-path grammar, so they say nothing.
    static func durationConfidence(frames: Int, phones: Int) -> Double {
        let perPhone = Double(frames) / Double(max(1, phones))
        return min(1, max(0, (perPhone - 3) / 3))
    }

    static func grammar(_ keys: [String]) -> String {
        "#JSGF V1.0;\ngrammar forge;\npublic <text> = \(keys.joined(separator: " "));\n"
    }

    /// The price of ending an open-ended window's words early. Small: ending early must be
    /// the better explanation of the audio by a wide margin (the window really holds fewer
    /// words), not a way around one hard word. (With `a [b [c]]` in JSGF every word would cost
    /// as much as stopping, and windows ended early and dragged their last words along.)
    static let stopProbability = 1e-30
    /// The price of passing over a word the narrator did not read (second tries only).
    static let skipProbability = 1e-10

    static func isFiller(_ word: String) -> Bool {
        word.isEmpty || word.hasPrefix("<") || word.hasPrefix("[") || word == "(NULL)" || word == pauseWord
            || word.hasPrefix(phoneWordPrefix)
    }

    /// The acoustic model's speech phones, each a dictionary word of the locating decoder: a
    /// phone loop that explains speech before the text (a narrator's intro) so the text need
    /// not be stretched over it.
    static let phones = [
        "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH", "IH", "IY", "JH",
        "K", "L", "M", "N", "NG",
        "OW", "OY", "P", "R", "S", "SH", "T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
    ]
    static let phoneWordPrefix = "forge-phone-"
    /// The price of each phone before the text: high enough that the text, where it is, explains
    /// its audio better.
    static let leadingPhoneProbability = 1e-3

    /// The dictionary word without an alternate-pronunciation suffix such as `(2)`.
    static func baseWord(_ word: String) -> String {
        guard word.hasSuffix(")"), let open = word.lastIndex(of: "(") else { return word }
        return String(word[..<open])
    }
}
