import CPocketSphinx
import Foundation

/// One pocketsphinx decoder: the acoustic model, a dictionary and one active search (a JSGF
/// grammar for forced alignment, or an n-gram language model for transcription).
///
/// A decoder is used by one task at a time (it is not `Sendable`); several decoders run in
/// parallel fine, one per task.
final class PocketSphinxDecoder {
    /// A word (or filler such as `<sil>`) the decoder placed, in 10 ms frames.
    struct Segment {
        var word: String
        var startFrame: Int
        var endFrame: Int
        /// Posterior probability of the word, 0...1, when the search computed one.
        var posterior: Double?
        /// The word's acoustic log-likelihood in natural-log units (more negative is worse),
        /// relative to the best senone of each frame, so scores of two searches over the same
        /// frames compare.
        var acousticScore: Double
    }

    /// Frames per second of pocketsphinx's front end (`-frate`, default 100).
    static let framesPerSecond = 100
    /// The sample rate the en-us acoustic model expects.
    static let sampleRate = 16_000

    private let decoder: OpaquePointer
    private var searchName: String?
    /// The file the search named "lm" was read from, while that search exists.
    private var loadedLanguageModel: URL?

    /// pocketsphinx logs every step to stderr unless told not to, once per process.
    static let silenceLog: Void = { err_set_logfp(nil) }()
    /// `ps_init` touches process-wide state (the log file, which it may open and close), so two
    /// decoders created at the same moment on two threads deadlocked in glibc's stdio lock;
    /// creation is serialized, decoding is not.
    static let creation = NSLock()

    init(model: RecognizerModel, options: [String: String]) throws(RecognitionError) {
        _ = Self.silenceLog
        var arguments = [
            "-hmm", model.acousticModel.path,
            "-dict", model.dictionary.path,
            // Silence removal shifts every word time; the whole signal is always decoded.
            "-remove_silence", "no",
        ]
        for (name, value) in options.sorted(by: { $0.key < $1.key }) { arguments += [name, value] }
        let argv = arguments.map { strdup($0) }
        defer { for argument in argv { free(argument) } }
        var pointers = argv
        let config = pointers.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        guard let config else {
            throw .decoderFailed("pocketsphinx rejected its configuration \(arguments.joined(separator: " "))")
        }
        defer { cmd_ln_free_r(config) }
        Self.creation.lock()
        let created = ps_init(config)
        Self.creation.unlock()
        guard let decoder = created else {
            throw .decoderFailed(
                "pocketsphinx could not load the model at \(model.acousticModel.path) with dictionary \(model.dictionary.path)"
            )
        }
        self.decoder = decoder
    }

    deinit { ps_free(decoder) }

    /// The phones of `word` in the dictionary (its first pronunciation), or nil if it has none.
    func pronunciation(of word: String) -> [String]? {
        guard let pronunciation = ps_lookup_word(decoder, word) else { return nil }
        defer { free(pronunciation) }
        return String(cString: pronunciation).split(separator: " ").map(String.init)
    }

    /// Adds `word` with `phones` (space-separated, in the acoustic model's phone set).
    @discardableResult
    func addWord(_ word: String, phones: String) -> Bool {
        ps_add_word(decoder, word, phones, 1) >= 0
    }

    /// Makes a JSGF grammar the active search.
    func useGrammar(_ jsgf: String) throws(RecognitionError) {
        let name = "grammar"
        if searchName == name { ps_unset_search(decoder, name) }
        guard ps_set_jsgf_string(decoder, name, jsgf) == 0, ps_set_search(decoder, name) == 0 else {
            throw .decoderFailed("pocketsphinx rejected the alignment grammar")
        }
        searchName = name
    }

    /// The most words one skip passes over (see `useWordSequence`); longer gaps chain skips.
    static let longestSkip = 8

    /// Makes a word sequence the active search, as a finite-state grammar built directly: the
    /// words in order, and (when `stopProbability` is given) a way out to the end after each word
    /// with that probability, so the utterance may end early but pays for it.
    /// `pause`, a dictionary word, may repeat between words (a self-loop on every state) for
    /// decoders run without pocketsphinx's own fillers.
    /// With `skipProbability`, any word may be passed over at that price (a narrator who skipped
    /// a sentence); it slows the search, so it is for a second try where the first went wrong.
    /// With `startsAnywhere`, the path may begin at any word (finding where audio lies in a text),
    /// and with `leading`, after any number of those words (dictionary words for a phone loop).
    func useWordSequence(
        _ words: [String], stopProbability: Double?, skipProbability: Double? = nil,
        pause: (word: String, probability: Double)? = nil,
        startsAnywhere: Bool = false, leading: (words: [String], probability: Double)? = nil
    ) throws(RecognitionError) {
        let name = "sequence"
        guard !words.isEmpty, let logMath = ps_get_logmath(decoder),
            let fsg = fsg_model_init(name, logMath, 6.5, Int32(words.count + 1))
        else { throw .decoderFailed("could not build the word-sequence grammar") }
        fsg.pointee.start_state = 0
        fsg.pointee.final_state = Int32(words.count)
        for (index, word) in words.enumerated() {
            let id = fsg_model_word_add(fsg, word)
            fsg_model_trans_add(fsg, Int32(index), Int32(index + 1), 0, id)
        }
        if startsAnywhere {
            // Any word may be the first: the start state also says each word, into the state
            // after it, all at one price (where the audio lies in the text is the question).
            let start = logmath_log(logMath, 1 / Double(words.count))
            for (index, word) in words.enumerated() where index > 0 {
                fsg_model_trans_add(fsg, 0, Int32(index + 1), start, fsg_model_word_add(fsg, word))
            }
        }
        if let leading {
            // Before the first word, any of these, any number of times (speech that is not the
            // text: an intro, the end of a word the audio starts in).
            let logp = logmath_log(logMath, leading.probability)
            for word in leading.words { fsg_model_trans_add(fsg, 0, 0, logp, fsg_model_word_add(fsg, word)) }
        }
        if let pause {
            let id = fsg_model_word_add(fsg, pause.word)
            let logp = logmath_log(logMath, pause.probability)
            for state in 0...words.count { fsg_model_trans_add(fsg, Int32(state), Int32(state), logp, id) }
        }
        if let stopProbability {
            let stop = logmath_log(logMath, stopProbability)
            for state in 1..<max(1, words.count) {
                _ = fsg_model_null_trans_add(fsg, Int32(state), Int32(words.count), stop)
            }
        }
        if let skipProbability {
            // Passing over up to `longestSkip` words at once is a word transition that jumps
            // ahead (state i to i+k+1, saying word i+k): no null transitions, whose closure
            // over a window's few hundred words would hold hundreds of megabytes. A jump of more
            // than one word costs two skips however far it goes, as a narrator's skip is one slip
            // whatever its length: priced per word, a skipped paragraph costs more than
            // misplacing the words after it (and priced as one, the search keeps too many paths).
            let skip = logmath_log(logMath, skipProbability)
            for state in 0..<words.count {
                for skipped in 1...Self.longestSkip where state + skipped < words.count {
                    let id = fsg_model_word_add(fsg, words[state + skipped])
                    fsg_model_trans_add(
                        fsg, Int32(state), Int32(state + skipped + 1), skip * Int32(min(skipped, 2)), id)
                }
            }
        }
        if stopProbability != nil {
            // The search follows null transitions only through their closure.
            // It returns the null transitions it added, a list the caller frees.
            glist_free(fsg_model_null_trans_closure(fsg, nil))
        }
        if searchName == name { ps_unset_search(decoder, name) }
        // The search keeps its own reference to the grammar.
        defer { fsg_model_free(fsg) }
        guard ps_set_fsg(decoder, name, fsg) == 0, ps_set_search(decoder, name) == 0 else {
            throw .decoderFailed("pocketsphinx rejected the word-sequence grammar")
        }
        searchName = name
    }

    /// Frees the active grammar or word-sequence search once its path has been read: its grammar,
    /// lexical tree and word history are held until the next search replaces them otherwise, and
    /// a thread's decoders would each hold their last (a locating search's grammar and history)
    /// while another of them searched. The phone loop, kept on purpose, and a language
    /// model, loaded once, stay.
    func releaseWordSearch() {
        guard let name = searchName, name == "grammar" || name == "sequence" else { return }
        ps_unset_search(decoder, name)
        searchName = nil
    }

    /// Makes a phone loop the active search: any phone may follow any other, so its path is the
    /// best the acoustic model can explain the audio with, whatever was said. A forced path's
    /// acoustic score against this one says whether the forced words were spoken.
    func usePhoneLoop() throws(RecognitionError) {
        let name = "phones"
        // The same search serves every phone loop: pocketsphinx frees an allphone search
        // without its last path (each phone a segment), so one made per window would leak a
        // little each window, growing with the book; kept, each path frees the last.
        if searchName == name { return }
        guard ps_set_allphone(decoder, name, nil) == 0, ps_set_search(decoder, name) == 0 else {
            throw .decoderFailed("pocketsphinx could not start a phone-loop search")
        }
        searchName = name
    }

    /// Makes an ARPA or binary n-gram language model file the active search. The model stays
    /// loaded beside other searches: asked for the same file again (after a word sequence), the
    /// decoder switches back to it without reading it again.
    func useLanguageModel(at url: URL) throws(RecognitionError) {
        let name = "lm"
        if url == loadedLanguageModel {
            guard ps_set_search(decoder, name) == 0 else {
                throw .decoderFailed("pocketsphinx lost the language model \(url.path)")
            }
            searchName = name
            return
        }
        if loadedLanguageModel != nil {
            ps_unset_search(decoder, name)
            loadedLanguageModel = nil
        }
        guard ps_set_lm_file(decoder, name, url.path) == 0, ps_set_search(decoder, name) == 0 else {
            throw .decoderFailed("pocketsphinx could not load the language model \(url.path)")
        }
        loadedLanguageModel = url
        searchName = name
    }

    /// Decodes 16 kHz mono PCM as one utterance and returns the best path's words and fillers.
    func decode(_ samples: ArraySlice<Int16>, posteriors: Bool) throws(RecognitionError) -> [Segment] {
        guard ps_start_utt(decoder) == 0 else { throw .decoderFailed("pocketsphinx could not start an utterance") }
        let processed = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 1)
        }
        guard ps_end_utt(decoder) == 0, processed >= 0 else {
            throw .decoderFailed("pocketsphinx failed to decode \(samples.count) samples")
        }
        var score: Int32 = 0
        guard ps_get_hyp(decoder, &score) != nil else { return [] }
        if posteriors { _ = ps_get_prob(decoder) }
        let logBase = log(1.0001)
        // Senone scores are kept shifted right by 10 bits (pocketsphinx's SENSCR_SHIFT).
        let acousticBase = logBase * 1024
        var segments: [Segment] = []
        var iterator = ps_seg_iter(decoder)
        while let segment = iterator {
            var start: Int32 = 0
            var end: Int32 = 0
            ps_seg_frames(segment, &start, &end)
            var acoustic: Int32 = 0
            var language: Int32 = 0
            var backoff: Int32 = 0
            let probability = ps_seg_prob(segment, &acoustic, &language, &backoff)
            let word = ps_seg_word(segment).map { String(cString: $0) } ?? ""
            segments.append(
                Segment(
                    word: word, startFrame: Int(start), endFrame: Int(end),
                    posterior: posteriors ? min(1, exp(Double(probability) * logBase)) : nil,
                    acousticScore: Double(acoustic) * acousticBase))
            iterator = ps_seg_next(segment)
        }
        return segments
    }
}
