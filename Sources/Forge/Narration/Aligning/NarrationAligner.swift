import Synchronization

/// Aligns a long recording (a human narrator, another engine; hours long) to its text without
/// drift, and says where the two disagree.
///
/// The audio is aligned in windows, each starting at the last confidently heard word of the one
/// before (an anchor), so an error never carries further than one window. Each window gives the
/// recognizer at most about 1.5× the words the window's audio can hold, with a grammar that may
/// end after any word; words in the window's last seconds are left for the next window.
///
/// Whether a word was heard is decided acoustically: its forced path is scored against a phone
/// loop over the same frames (``PhoneLoopReference``). A window where nothing fits (a passage not
/// in the text, the wrong recording) is passed over as audio without text; the text waits for
/// the next window. Work is proportional to the audio, whatever the text's length: text past the
/// end of the recording is never searched, only reported.
///
/// A recording of a few minutes or more is cut into segments aligned side by side, one per
/// thread: where each segment starts in the text is found first (``WindowAligner/boundary(near:words:texts:samples:pathStart:leadingWords:afterOtherSpeech:attempts:)``,
/// a short snippet searched in the stretch of text its place in the recording suggests: between
/// the places found for the cuts around it, a round at a time), and the segments' windows then
/// run independently. Segments depend only on the recording and the text,
/// never on how many run at once, so the result does not either.
package final class NarrationAligner {
    package var windowSeconds = 60
    /// The stretch at a window's end whose words are left for the next window.
    package var marginSeconds = 12
    /// Words at least this confident can anchor the next window.
    package var anchorConfidence = 0.5
    /// A narrator's fastest plausible pace; windows never hold more words than this allows, so a
    /// text far longer than its recording costs no more than the right one.
    package var maxWordsPerSecond = 4.0
    /// About how long a segment is: the recording is cut into an even number of them (two
    /// threads share them evenly), or aligned whole when shorter than ``shortestSplitSeconds``.
    package var segmentSeconds = 600
    package var shortestSplitSeconds = NarrationAligner.defaultShortestSplitSeconds
    package static let defaultShortestSplitSeconds = 240
    /// Segments aligned at once.
    package var jobs = 2
    /// Whether windows are searched again allowing skips (``WindowAligner/Settings/retriesSkips``).
    var retriesSkips = true
    /// What this alignment's searches pass through (``SearchGate``): its large searches (locating
    /// text, skipping words) run alone among them and those of other alignments given the same gate.
    var searchGate = SearchGate()

    /// A word fits its audio when its forced path scores at most this much worse than the
    /// phone loop, per frame: on human narration the right text's words score above it and most
    /// of another text's below (docs/benchmarks.md, "Calibrations"). Synthetic voices the acoustic
    /// model fits less well score lower.
    static let heardFit = -3.0
    /// Where a word's fit gives it full confidence, and none (an anchor needs 0.5: −3).
    static let fitRange = (none: -4.5, full: -1.5)
    /// Unheard runs shorter than this inside heard text are a mumbled word, not missing text.
    static let shortestMissingRun = 3
    /// Speech not covered by heard words counts as audio without text from this much on, with
    /// gaps up to `speechGapMs` inside it.
    static let shortestUnmatchedSpeechMs = 1_000
    static let speechGapMs = 500

    /// The most words before the narrator's first (front matter not read) the start is found after.
    static let longestUnreadStart = 1_000
    /// How far from its guess a cut's text is looked for, at most, each way.
    static let widestLocateSlack = 12_000
    /// The words one locating search is given: its memory and time grow with them, and two run
    /// side by side. A path matching twice in one piece is
    /// refused, and a place found is confirmed by a window's search
    /// (``WindowAligner/isConfirmed(_:texts:samples:)``), so a phrase the book repeats
    /// elsewhere in a piece does not make a false cut.
    static let locatePiece = 1_500

    /// The stretches of words a cut guessed at `guess` is looked for in, in order: the piece
    /// around the guess, then the next ones after and before it in turn, out to `slack` each
    /// way and never outside `bounds`.
    static func locatePieces(around guess: Int, slack: Int, within bounds: Range<Int>) -> [Range<Int>] {
        let low = max(bounds.lowerBound, guess - slack)
        let high = min(bounds.upperBound, guess + slack)
        guard low < high else { return [] }
        let first =
            max(
                low, min(guess - locatePiece / 2, high - locatePiece))..<min(
                high, max(guess - locatePiece / 2, low) + locatePiece)
        var pieces = [first]
        var after = first.upperBound
        var before = first.lowerBound
        while after < high || before > low {
            if after < high {
                pieces.append(after..<min(high, after + locatePiece))
                after += locatePiece
            }
            if before > low {
                pieces.append(max(low, before - locatePiece)..<before)
                before -= locatePiece
            }
        }
        return pieces
    }

    /// The order cuts `1..<count` are looked for in, a round at a time: each round's cuts halve
    /// the stretches between the cuts of the rounds before (the recording's start and end count
    /// as cuts): a cut of round `r` lies midway between two cuts looked for before it, at most
    /// `count / 2^r` (rounded up) apart.
    static func locatingRounds(cuts count: Int) -> [[Int]] {
        var rounds: [[Int]] = []
        var stretches = [(0, count)]
        while true {
            var round: [Int] = []
            var halves: [(Int, Int)] = []
            for (start, end) in stretches where end - start >= 2 {
                let middle = (start + end) / 2
                round.append(middle)
                halves += [(start, middle), (middle, end)]
            }
            guard !round.isEmpty else { return rounds }
            rounds.append(round)
            stretches = halves
        }
    }

    /// Where cut `cut` of `count` is guessed in the text and how widely it is looked for,
    /// from the places found for the cuts before and after it (`found`, the start's at 0; the
    /// text's and recording's ends stand after the last): the word its share of the audio
    /// between the nearest found on each side gives, looked for a fifth of the words between
    /// them and 500 more each way, between those two words.
    static func locateGuess(
        cut: Int, of count: Int, found: [(word: Int, sample: Int)?], words: Int, samples: Int
    ) -> (guess: Int, slack: Int, bounds: Range<Int>) {
        let sample = samples / count * cut
        let before = found[..<cut].last { $0 != nil }.flatMap { $0 } ?? (word: 0, sample: 0)
        let after = found[(cut + 1)...].first { $0 != nil }.flatMap { $0 } ?? (word: words, sample: samples)
        let span = max(0, after.word - before.word)
        let share =
            after.sample > before.sample
            ? Double(min(max(sample, before.sample), after.sample) - before.sample)
                / Double(after.sample - before.sample) : 0.5
        let guess = before.word + Int(Double(span) * share)
        let slack = min(widestLocateSlack, span / 5 + 500)
        return (guess, slack, min(before.word + 1, after.word)..<after.word)
    }

    /// The share of the progress reported while segments are found.
    package static let locatingShare = 0.02

    private let model: RecognizerModel
    private let language: String

    /// An aligner with `model`'s recognizer for text in `language`.
    package init(model: RecognizerModel = .standard, language: String = "en-us") throws(RecognitionError) {
        try model.checkAvailable()
        guard model.supports(language: language) else { throw .unsupportedLanguage(language) }
        self.model = model
        self.language = language
    }

    /// Aligns `words` (offsets into one text) to `audio`; progress is the fraction of the audio done.
    package func align(
        words: [WordToken], audio: DecodedAudio, progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> NarrationAlignment {
        let samples = RecognizerAudio(samples: RecognizerInput.samples(audio.samples[...], from: audio.sampleRate))
        return try align(words: words, samples: samples, durationMs: audio.durationMs, progress: progress)
    }

    /// Aligns `words` to `samples` (16 kHz), reading one window at a time.
    ///
    /// `resumingFrom` are the checkpoints an interrupted run of the same words and samples
    /// saved, in the order each segment saved them: each segment goes on after its last, in the
    /// `segments` that run found (when they cover these words and samples; else they are looked
    /// for again and handed to `segmentsFound`). `checkpoint` is given each window's as it is
    /// done, from the segments' threads (what it throws stops the alignment).
    func align(
        words: [WordToken], samples: RecognizerAudio, durationMs: Int,
        resumingFrom checkpoints: [NarrationCheckpoint] = [], segments known: [NarrationSegment] = [],
        segmentsFound: ([NarrationSegment]) throws -> Void = { _ in },
        checkpoint: @escaping @Sendable (NarrationCheckpoint) throws -> Void = { _ in },
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> NarrationAlignment {
        let placed = try place(
            texts: words.map(\.text), samples: samples, resumingFrom: checkpoints, segments: known,
            segmentsFound: segmentsFound, checkpoint: checkpoint, progress: progress)
        return Self.result(
            words: words, placements: placed.placements, speech: FrameFlags(placed.speech), durationMs: durationMs)
    }

    /// ``align(words:samples:durationMs:resumingFrom:segments:segmentsFound:checkpoint:progress:)``
    /// before its last step: where each word was placed (nil: never found; heard or not is decided
    /// from its fit), and which 10 ms frames of `samples` hold speech. With `startKnown`, the
    /// text's first word is known to start at the first sample (give or take a pause) and is not
    /// looked for (``segments(texts:samples:settings:startKnown:progress:)``).
    func place(
        texts: [String], samples: RecognizerAudio, startKnown: Bool = false,
        resumingFrom checkpoints: [NarrationCheckpoint] = [], segments known: [NarrationSegment] = [],
        segmentsFound: ([NarrationSegment]) throws -> Void = { _ in },
        checkpoint: @escaping @Sendable (NarrationCheckpoint) throws -> Void = { _ in },
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> (placements: [WordPlacement?], speech: [Bool]) {
        let rate = PocketSphinxDecoder.sampleRate
        let samplesPerFrame = rate / PocketSphinxDecoder.framesPerSecond
        let frames = samples.count / samplesPerFrame + 1
        guard !texts.isEmpty, samples.count > 0 else {
            return ([WordPlacement?](repeating: nil, count: texts.count), [Bool](repeating: false, count: frames))
        }
        let audioSeconds = Double(samples.count) / Double(rate)
        let wordsPerSecond = min(maxWordsPerSecond, Double(texts.count) / max(1, audioSeconds))
        let settings = WindowAligner.Settings(
            windowSeconds: windowSeconds, marginSeconds: marginSeconds, anchorConfidence: anchorConfidence,
            wordsPerWindow: WindowAligner.Settings.wordsPerWindow(
                wordsPerSecond: wordsPerSecond, seconds: windowSeconds), retriesSkips: retriesSkips)
        // Looking for the segments' places is the first 2% of the work, aligning them the rest.
        let segments: [NarrationSegment]
        if Self.covers(known, words: texts.count, samples: samples.count) {
            segments = known
            progress(Self.locatingShare)
        } else {
            segments = try self.segments(texts: texts, samples: samples, settings: settings, startKnown: startKnown) {
                progress(Self.locatingShare * $0)
            }
            try segmentsFound(segments)
        }
        let placements = Mutex(PlacementList(count: texts.count))
        let speech = Mutex(FrameFlags(count: frames))
        let done = Mutex([Int](repeating: 0, count: segments.count))
        let total = samples.count
        try onThreads(segments.count, settings: settings) { index, aligner in
            let segment = segments[index]
            if index == 0, segment.samples.lowerBound > 0 {
                // Audio before the text (an intro): not aligned, but its speech is reported.
                let lead = try aligner.speech(in: 0..<segment.samples.lowerBound, samples: samples)
                speech.withLock { speech in
                    for (frame, isSpeech) in lead.enumerated() where frame < speech.count { speech[frame] = isSpeech }
                }
            }
            let saved = checkpoints.filter { segment.words.contains($0.firstWord) }
            let result = try aligner.align(
                segment, texts: texts, samples: samples,
                resumingFrom: Self.canResume(from: saved, words: texts.count, samples: samples.count)
                    && saved.first?.firstWord == segment.words.lowerBound
                    ? saved : [],
                checkpoint: checkpoint,
                progress: { cursor in
                    let sum = done.withLock { done in
                        done[index] = cursor - segment.samples.lowerBound
                        return done.reduce(0, +)
                    }
                    progress(Self.locatingShare + (1 - Self.locatingShare) * Double(sum) / Double(total))
                })
            placements.withLock { placements in
                for (offset, placement) in result.placements.enumerated() {
                    placements[segment.words.lowerBound + offset] = placement
                }
            }
            speech.withLock { speech in
                for (offset, isSpeech) in result.speech.enumerated()
                where result.firstFrame + offset < speech.count && isSpeech {
                    speech[result.firstFrame + offset] = true
                }
            }
        }
        progress(1)
        // Unpacked only now, when no search holds memory: each is as long as the book or the recording.
        return (placements.withLock { $0.drained() }, speech.withLock { $0.drained() })
    }

    /// The stretches of words and samples aligned independently: cut at an even number of
    /// places through the recording, each moved to where a run of the text is heard after it
    /// (a place where none is found, or one out of order, is not cut at). The first starts where
    /// the text can have begun: an intro before it is audio without text; with `startKnown` (a
    /// stretch whose place in the text Forge's own reading gave) the first starts at the first
    /// word and sample, and only the later cuts are looked for. `progress` is the share of places
    /// looked at.
    func segments(
        texts: [String], samples: RecognizerAudio, settings: WindowAligner.Settings, startKnown: Bool = false,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> [NarrationSegment] {
        let rate = PocketSphinxDecoder.sampleRate
        let seconds = samples.count / rate
        let count =
            seconds < shortestSplitSeconds
            ? 1 : 2 * max(1, Int((Double(seconds) / Double(2 * segmentSeconds)).rounded()))
        guard texts.count > 100, seconds >= 2 * WindowAligner.locateSeconds, !(startKnown && count == 1) else {
            return [NarrationSegment(words: 0..<texts.count, samples: 0..<samples.count)]
        }
        let found = Mutex([(word: Int, sample: Int)?](repeating: nil, count: count))
        let located = Atomic(0)
        // Each cut is looked for between the places found for the cuts around it, at its share of
        // the words between them (a narrator's pace changes little over minutes), so all but the
        // first rounds search a few thousand words in one piece. Every round is looked for from
        // the rounds before it only, so no result depends on the threads.
        let locate: @Sendable (Int, [(word: Int, sample: Int)?], WindowAligner) throws -> Void = {
            cut, known, aligner in
            // The text's start is looked for after any speech (an intro), which every word of
            // the range can follow at any frame: in the first words only.
            let ranges: [Range<Int>]
            if cut == 0 {
                ranges = [0..<min(texts.count, Self.longestUnreadStart)]
            } else {
                let (guess, slack, bounds) = Self.locateGuess(
                    cut: cut, of: count, found: known, words: texts.count, samples: samples.count)
                ranges = Self.locatePieces(around: guess, slack: slack, within: bounds)
            }
            let boundary = try aligner.boundary(
                near: samples.count / count * cut, words: ranges, texts: texts[...], samples: samples,
                pathStart: cut == 0)
            found.withLock { $0[cut] = boundary }
            progress(Double(located.add(1, ordering: .relaxed).newValue) / Double(count))
        }
        // The start first, alone (its search is the largest); a known start is the first word at
        // the first sample, as a cut not found is.
        if !startKnown { try onThreads(1, settings: settings) { _, aligner in try locate(0, [], aligner) } }
        for round in Self.locatingRounds(cuts: count) {
            let known = found.withLock { $0 }
            try onThreads(round.count, settings: settings) { index, aligner in
                try locate(round[index], known, aligner)
            }
        }
        // The text before the first found can have been read only just before it, at a slow
        // narrator's pace (a word a second) at the earliest: the audio before that (an intro,
        // music) is not aligned.
        var cuts = [(word: 0, sample: 0)]
        if let first = found.withLock({ $0[0] }) {
            cuts[0].sample = max(0, first.sample - (first.word * 1000 + 300) * rate / 1000)
        }
        for boundary in found.withLock({ $0 }).dropFirst().compactMap({ $0 }) {
            if let last = cuts.last, boundary.word <= last.word || boundary.sample <= last.sample { continue }
            cuts.append(boundary)
        }
        cuts.append((texts.count, samples.count))
        // Words before the first cut are not looked for, and audio before it is not aligned.
        return (0..<(cuts.count - 1)).map {
            NarrationSegment(words: cuts[$0].word..<cuts[$0 + 1].word, samples: cuts[$0].sample..<cuts[$0 + 1].sample)
        }
    }

    /// Runs `body(index, aligner)` for every index below `count` on up to ``jobs`` threads,
    /// taking indices in order, each index with a new aligner.
    ///
    /// Not one aligner per thread: a decoder's results depend on what it decoded before (the
    /// locating search, whose beams cap the words per frame, kept a different path for the same
    /// snippet after other searches), so which thread took which index would change where
    /// segments are cut, and with them the alignment. A new decoder costs little beside a
    /// segment's windows.
    private func onThreads(
        _ count: Int, settings: WindowAligner.Settings, _ body: @escaping @Sendable (Int, WindowAligner) throws -> Void
    ) throws {
        let (model, language, gate) = (model, language, searchGate)
        try BlockingThreads.forEachIndex(count, threads: jobs, cancellation: nil) { index in
            let aligner = try ForcedAligner(model: model, language: language, fillers: false)
            aligner.searchGate = gate
            try body(index, WindowAligner(aligner: aligner, settings: settings))
        }
    }

    /// Whether `segments` cut this many words and samples in order, each starting where the one
    /// before it ends (a damaged or foreign list is looked for again).
    static func covers(_ segments: [NarrationSegment], words: Int, samples: Int) -> Bool {
        guard let first = segments.first, let last = segments.last else { return false }
        return first.words.lowerBound == 0 && first.samples.lowerBound >= 0 && last.words.upperBound == words
            && last.samples.upperBound == samples
            && zip(segments, segments.dropFirst()).allSatisfy { before, after in
                before.words.upperBound == after.words.lowerBound
                    && before.samples.upperBound == after.samples.lowerBound
            }
    }

    /// Whether `checkpoints` can be from a run over this many words and samples (a damaged or
    /// foreign list is ignored: the alignment starts over).
    static func canResume(from checkpoints: [NarrationCheckpoint], words: Int, samples: Int) -> Bool {
        !checkpoints.isEmpty
            && checkpoints.allSatisfy { saved in
                saved.cursor >= 0 && saved.cursor <= samples && saved.nextWord >= 0 && saved.nextWord <= words
                    && saved.firstWord >= 0 && saved.firstWord + saved.placements.count <= words
                    && saved.speechFrame >= 0
            }
    }

    /// How sure the aligner is that it heard a placed word: how well it fits its audio, and
    /// whether it was given the time a spoken word takes.
    static func confidence(_ placement: WordPlacement) -> Double {
        let duration = placement.confidence ?? 1
        guard let fit = placement.fit else { return duration }
        let byFit = min(1, max(0, (fit - fitRange.none) / (fitRange.full - fitRange.none)))
        return min(duration, byFit)
    }

    /// Whether a short run of unheard words between heard ones is text said quickly rather than
    /// text the narrator left out: at most ``longestQuickRun`` words whose fits average no worse
    /// than ``fitRange``'s `none`. Left-out words are forced onto the speech around them and fit
    /// it as another text's words do (a LibriVox reading with three or four words added to its
    /// text: −6.7 to −17 each, the run's average −8 or below); a synthetic narrator's quick
    /// "and to her it" fit −1.2, −3.4 and −6.0 (the Piper benchmark's one false span).
    static func isSaidQuickly(_ run: ArraySlice<WordPlacement?>) -> Bool {
        let fits = run.compactMap { $0?.fit }
        guard run.count <= longestQuickRun, fits.count == run.count, !fits.isEmpty else { return false }
        return fits.reduce(0, +) / Double(fits.count) >= fitRange.none
    }

    /// The longest run of unheard words ``isSaidQuickly(_:)`` may take for text said quickly.
    static let longestQuickRun = 4

    static func isHeard(_ placement: WordPlacement?) -> Bool {
        guard let placement else { return false }
        return (placement.fit ?? 0) >= heardFit && (placement.confidence ?? 1) >= 0.1
    }

    /// Whether a window's placements contain a run of four or more unheard words.
    static func looksWrong(_ found: [WordPlacement?]) -> Bool {
        var run = 0
        for placement in found {
            guard let placement else { continue }
            run = isHeard(placement) ? 0 : run + 1
            if run >= 4 { return true }
        }
        return false
    }

    /// Where in the text after `next` a window whose audio is not at `next` picks up, if it is
    /// within three half-windows of words: each candidate start is aligned to the window, and the
    /// first with a run of heard words wins. Bounded work per window, whatever the text's length.
    static func textAhead(
        of next: Int, texts: ArraySlice<String>, wordsPerWindow: Int, samples: ArraySlice<Int16>,
        reference: PhoneLoopReference, aligner: ForcedAligner
    ) throws(RecognitionError) -> Int? {
        let stride = max(1, wordsPerWindow / 2)
        for step in 1...3 {
            let start = next + step * stride
            guard start < texts.count else { return nil }
            let candidate = Array(texts[start..<min(texts.count, start + wordsPerWindow)])
            let found = try aligner.place(candidate, in: samples, openEnded: true, reference: reference)
            if let run = lastHeardRun(found), found[...run].filter(isHeard).count >= 2 * shortestMissingRun {
                return start
            }
        }
        return nil
    }

    /// The last word of the last run of `shortestMissingRun` heard words (a word heard alone
    /// among unheard ones may be chance: "a" fits a breath).
    static func lastHeardRun(_ found: [WordPlacement?]) -> Int? {
        var run = 0
        var last: Int?
        for (index, placement) in found.enumerated() {
            run = isHeard(placement) ? run + 1 : 0
            if run >= shortestMissingRun { last = index }
        }
        return last
    }

    /// The share of a window's words that were heard.
    static func heardShare(_ found: [WordPlacement?]) -> Double {
        found.isEmpty ? 0 : Double(found.filter(isHeard).count) / Double(found.count)
    }

    /// How well a window's placements read: heard words count by their confidence, and an
    /// unheard word costs as much as a skipped one.
    static func quality(_ found: [WordPlacement?]) -> Double {
        let placed = found.compactMap { $0 }
        return placed.reduce(0) { $0 + confidence($1) } - Double(placed.filter { !isHeard($0) }.count)
    }

    /// The timings, heard words and spans of a finished alignment. `placements` (as long as the
    /// book) is taken over and reused, not copied.
    static func result(words: [WordToken], placements: consuming [WordPlacement?], speech: FrameFlags, durationMs: Int)
        -> NarrationAlignment
    {
        let heard = heardRuns(placements)
        // An unheard word's confidence is its placement's, kept before the placement is dropped.
        var unheardConfidences: [Int: Double] = [:]
        for position in placements.indices where !heard[position] {
            unheardConfidences[position] = placements[position].map(confidence) ?? 0
        }
        // Unheard words keep no placement: their timings are interpolated between heard ones.
        // Words past the last heard one (text the recording does not reach) are not squeezed
        // into the recording's end, which would push the heard words before them earlier: they
        // get a 1 ms mark where the recording ends.
        for position in placements.indices {
            placements[position] = heard[position] ? placements[position].map(withConfidence) : nil
        }
        let head = (heard.lastIndex(of: true) ?? -1) + 1
        // (No copies when every word up to the last is in: a long book's are large.)
        var alignment = ForcedAlignment.complete(
            words: head == words.count ? words : Array(words[..<head]),
            placements: head == placements.count ? placements : Array(placements[..<head]), durationMs: durationMs)
        placements = []
        moveOntoSpeech(&alignment.timings, heard: heard, head: head, speech: speech)
        let tailStart = min(max(0, durationMs - 1), alignment.timings.last?.endMs ?? 0)
        alignment.timings += repeatElement(
            WordTiming(startMs: tailStart, endMs: tailStart + 1), count: words.count - head)
        alignment.confidences += repeatElement(nil, count: words.count - head)
        for (position, confidence) in unheardConfidences { alignment.confidences[position] = confidence }
        let (spans, unmatchedSpeechFrames) = Self.spans(
            heard: heard, timings: alignment.timings, speech: speech, durationMs: durationMs)
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        return NarrationAlignment(
            alignment: alignment, heard: heard, spans: spans, speechMs: speech.setCount * frameMs,
            unmatchedSpeechMs: unmatchedSpeechFrames * frameMs)
    }

    /// Which words were heard, by runs: a lone unheard word among heard ones is a word said
    /// quickly or indistinctly; only runs of unheard words are text missing from the recording,
    /// and a short run only when its words fit their audio as words of another text do (see
    /// ``isSaidQuickly(_:)``). And a short heard run amid unheard text (a "the" or "this" fitting
    /// a narrator's intro, between front matter the recording does not hold) is chance, not the
    /// text heard.
    static func heardRuns(_ placements: [WordPlacement?]) -> [Bool] {
        var heard = placements.map(isHeard)
        var index = 0
        while index < heard.count {
            guard !heard[index] else {
                index += 1
                continue
            }
            var end = index
            while end < heard.count && !heard[end] { end += 1 }
            let besideHeard = (index > 0 || end < heard.count) && heard.count > shortestMissingRun
            let run = placements[index..<end]
            if besideHeard, run.allSatisfy({ $0 != nil }),
                run.count < shortestMissingRun || (index > 0 && end < heard.count && isSaidQuickly(run))
            {
                for position in index..<end { heard[position] = true }
            }
            index = end
        }
        index = 0
        while index < heard.count {
            guard heard[index] else {
                index += 1
                continue
            }
            var end = index
            while end < heard.count && heard[end] { end += 1 }
            if end - index < shortestMissingRun {
                var before = index
                while before > 0 && !heard[before - 1] { before -= 1 }
                var after = end
                while after < heard.count && !heard[after] { after += 1 }
                let unheardBefore = index - before >= shortestMissingRun || (index == 0 && end < heard.count)
                let unheardAfter = after - end >= shortestMissingRun || (end == heard.count && index > 0)
                if unheardBefore && unheardAfter && (index - before) + (after - end) >= shortestMissingRun {
                    for position in index..<end { heard[position] = false }
                }
            }
            index = end
        }
        return heard
    }

    /// Unheard words' interpolated timings (up to `head`) moved onto the speech: one that would
    /// start in a pause starts where the speech after it does, if inside the word; one with no
    /// speech under it at all (a short word the recognizer left in the pause before its sentence)
    /// moves to the end of the pause, against the word after it.
    private static func moveOntoSpeech(_ timings: inout [WordTiming], heard: [Bool], head: Int, speech: FrameFlags) {
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        for position in 0..<head where !heard[position] {
            let timing = timings[position]
            var frame = timing.startMs / frameMs
            guard frame < speech.count, !speech[frame] else { continue }
            while frame < speech.count && !speech[frame] && (frame + 1) * frameMs < timing.endMs { frame += 1 }
            if frame < speech.count && speech[frame] { timings[position].startMs = frame * frameMs }
        }
        guard head >= 2 else { return }
        for position in stride(from: head - 2, through: 0, by: -1) {
            let timing = timings[position]
            let nextStart = timings[position + 1].startMs
            guard nextStart > timing.endMs else { continue }
            let firstFrame = timing.startMs / frameMs
            let frames = firstFrame..<min(speech.count, max(firstFrame + 1, timing.endMs / frameMs))
            guard !frames.isEmpty, !frames.contains(where: { speech[$0] }) else { continue }
            timings[position] = WordTiming(startMs: nextStart - (timing.endMs - timing.startMs), endMs: nextStart)
        }
    }

    private static func withConfidence(_ placement: WordPlacement) -> WordPlacement {
        var placement = placement
        placement.confidence = confidence(placement)
        return placement
    }

    /// Matched and text-not-in-audio spans from runs of heard and unheard words, and
    /// audio-without-text spans where the recording holds speech no matched span covers, and
    /// how many frames of speech those hold.
    static func spans(heard: [Bool], timings: [WordTiming], speech: FrameFlags, durationMs: Int) -> (
        spans: [NarrationSpan], unmatchedSpeechFrames: Int
    ) {
        var spans: [NarrationSpan] = []
        var index = 0
        var lastMatchedEnd = 0
        while index < heard.count {
            var end = index
            while end < heard.count && heard[end] == heard[index] { end += 1 }
            if heard[index] {
                spans.append(
                    NarrationSpan(
                        kind: .matched, startMs: timings[index].startMs, endMs: timings[end - 1].endMs,
                        words: index..<end))
                lastMatchedEnd = timings[end - 1].endMs
            } else {
                // Where the words would be: between the heard words around them.
                let nextStart = end < heard.count ? timings[end].startMs : durationMs
                spans.append(
                    NarrationSpan(
                        kind: .textNotInAudio, startMs: lastMatchedEnd, endMs: max(lastMatchedEnd, nextStart),
                        words: index..<end))
            }
            index = end
        }
        // Speech outside matched spans. The frames the matched spans cover, as ordered disjoint
        // ranges walked beside the frames, not a flag per frame of the whole recording.
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        var coveredRanges: [Range<Int>] = []
        for span in spans where span.kind == .matched {
            let first = max(0, span.startMs / frameMs)
            let last = min(speech.count, span.endMs / frameMs + 1)
            if first < last { coveredRanges.append(first..<last) }
        }
        coveredRanges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in coveredRanges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var nextCovered = 0
        func isCovered(_ frame: Int) -> Bool {
            while nextCovered < merged.count && merged[nextCovered].upperBound <= frame { nextCovered += 1 }
            return nextCovered < merged.count && merged[nextCovered].contains(frame)
        }
        var unmatched: [NarrationSpan] = []
        var runStart: Int?
        var runEnd = 0
        var runSpeech = 0
        var unmatchedFrames = 0
        func close() {
            if let start = runStart, runSpeech * frameMs >= shortestUnmatchedSpeechMs {
                unmatched.append(
                    NarrationSpan(
                        kind: .audioWithoutText, startMs: start * frameMs,
                        endMs: min(durationMs, (runEnd + 1) * frameMs), words: 0..<0))
                unmatchedFrames += runSpeech
            }
            runStart = nil
            runSpeech = 0
        }
        for frame in 0..<speech.count where speech[frame] && !isCovered(frame) {
            if runStart != nil, (frame - runEnd) * frameMs > speechGapMs { close() }
            if runStart == nil { runStart = frame }
            runEnd = frame
            runSpeech += 1
        }
        close()
        let ordered = (spans + unmatched).sorted {
            ($0.startMs, $0.kind == .audioWithoutText ? 1 : 0) < ($1.startMs, $1.kind == .audioWithoutText ? 1 : 0)
        }
        return (ordered, unmatchedFrames)
    }
}
