/// Aligns one segment of a narration window by window (see ``NarrationAligner``), with a
/// forced aligner of its own: a new one for each segment and each cut (see `NarrationAligner.onThreads`).
final class WindowAligner {
    /// What every segment of one alignment shares.
    struct Settings: Sendable {
        var windowSeconds: Int
        var marginSeconds: Int
        var anchorConfidence: Double
        /// The most words one window is given.
        var wordsPerWindow: Int
        /// Whether a window with a run of unheard words among heard ones is searched again
        /// allowing words to be skipped. A search that only confirms where Forge's own reading
        /// put the words does without: a wider examination follows where it fails.
        var retriesSkips = true

        /// The words a window of `seconds` is given for a narrator reading `wordsPerSecond`: half
        /// as many again, and a few more (a window must not run out of words before its audio does).
        static func wordsPerWindow(wordsPerSecond: Double, seconds: Int) -> Int {
            Int(wordsPerSecond * Double(seconds) * 1.5) + 20
        }

        /// The narrator's pace the windows were sized for, in words a second.
        var wordsPerSecond: Double { Double(max(0, wordsPerWindow - 20)) / (1.5 * Double(windowSeconds)) }
    }

    /// What a segment settled: placements of its words, and the frames heard as speech from
    /// `firstFrame` on.
    struct Result {
        var placements: [WordPlacement?]
        var firstFrame: Int
        var speech: [Bool]
    }

    private let aligner: ForcedAligner
    private let settings: Settings

    /// Aligns with `aligner`, whose ``ForcedAligner/searchGate`` the aligners working beside it share.
    init(aligner: ForcedAligner, settings: Settings) {
        self.aligner = aligner
        self.settings = settings
    }

    /// Aligns `segment`'s words to its samples, going on after `checkpoints` (this segment's, in
    /// order) when there are any; `checkpoint` is given each window's as it is done, `progress`
    /// the sample the segment has reached.
    func align(
        _ segment: NarrationSegment, texts allTexts: [String], samples: RecognizerAudio,
        resumingFrom checkpoints: [NarrationCheckpoint],
        checkpoint: (NarrationCheckpoint) throws -> Void, progress: (Int) -> Void
    ) throws -> Result {
        // The segment's text ends where the next segment's begins (a slice: no copy per segment).
        let texts = allTexts[..<segment.words.upperBound]
        var state = SegmentState(segment)
        for saved in checkpoints { state.resume(saved) }
        if !checkpoints.isEmpty { progress(state.cursor) }
        let loop = SegmentPhoneLoop(aligner: aligner, samples: samples, range: segment.samples)
        while state.next < segment.words.upperBound && state.cursor < segment.samples.upperBound {
            guard let done = try alignWindow(&state, texts: texts, samples: samples, loop: loop) else { break }
            // A window's search (wide beams, a skip retry) may hold a hundred megabytes and free
            // it: hand it back, or each thread's arena keeps its largest window's for good.
            MemoryTrim.release()
            try checkpoint(done)
            progress(state.cursor)
        }
        progress(segment.samples.upperBound)
        return Result(placements: state.placements, firstFrame: state.firstFrame, speech: state.speech)
    }

    /// Where a segment's alignment stands: the placements and speech it settled, the sample its
    /// next window starts at and the word it starts with.
    struct SegmentState {
        let segment: NarrationSegment
        let firstFrame: Int
        var placements: [WordPlacement?]
        var speech: [Bool]
        var cursor: Int
        var next: Int

        init(_ segment: NarrationSegment) {
            let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond
            self.segment = segment
            firstFrame = segment.samples.lowerBound / samplesPerFrame
            placements = [WordPlacement?](repeating: nil, count: segment.words.count)
            speech = [Bool](repeating: false, count: segment.samples.count / samplesPerFrame + 1)
            cursor = segment.samples.lowerBound
            next = segment.words.lowerBound
        }

        /// A window's speech flags, from its first frame `frame` on.
        mutating func settle(speech windowSpeech: [Bool], from frame: Int) {
            for (offset, isSpeech) in windowSpeech.enumerated()
            where frame + offset - firstFrame >= 0 && frame + offset - firstFrame < speech.count {
                speech[frame + offset - firstFrame] = isSpeech
            }
        }

        /// Placements settled for the words from `first` on.
        mutating func settle(_ settled: [WordPlacement?], from first: Int) {
            for (index, placement) in settled.enumerated() where segment.words.contains(first + index) {
                placements[first + index - segment.words.lowerBound] = placement
            }
        }

        /// What an interrupted run saved of a window, taken as it is.
        mutating func resume(_ saved: NarrationCheckpoint) {
            settle(speech: saved.speech, from: saved.speechFrame)
            settle(saved.placements, from: saved.firstWord)
            cursor = saved.cursor
            next = saved.nextWord
        }
    }

    /// One window from where `state` stands: its words placed, the words it settles kept and
    /// `state` moved on past them; the window's checkpoint, or nil when the segment's last window
    /// settles nothing.
    private func alignWindow(
        _ state: inout SegmentState, texts: ArraySlice<String>, samples: RecognizerAudio, loop: SegmentPhoneLoop
    ) throws -> NarrationCheckpoint? {
        let rate = PocketSphinxDecoder.sampleRate
        let margin = settings.marginSeconds * rate
        let end = state.segment.samples.upperBound
        let cursor = state.cursor
        var windowEnd = min(end, cursor + settings.windowSeconds * rate)
        let isLast = end - windowEnd < margin
        if isLast { windowEnd = end }
        let count = min(state.segment.words.upperBound - state.next, settings.wordsPerWindow)
        let windowTexts = Array(texts[state.next..<(state.next + count)])
        let windowSamples = samples.samples(cursor..<windowEnd)[...]
        let reference = try loop.reference(cursor..<windowEnd)
        let onsets = SpeechOnsets(samples: windowSamples)
        let speechFrame = cursor / (rate / PocketSphinxDecoder.framesPerSecond)
        let firstWord = state.next
        // Speech: a speech phone in the phone loop, where there is sound (on digital
        // silence the acoustic model hears anything).
        let windowSpeech = Self.speech(reference, onsets)
        state.settle(speech: windowSpeech, from: speechFrame)
        var found = try placeWindow(windowTexts, in: windowSamples, reference: reference, isLast: isLast)
        found = onsets.snapped(found)
        // Keep the words before the margin (all of them in the last window); the next window
        // starts at the end of the last confident one.
        var keepBeforeMs = (windowEnd - (isLast ? 0 : margin) - cursor) * 1000 / rate
        var settlesAll = isLast
        // Far fewer words heard than the narrator says in the window: its text is not what it
        // holds, from its start (the first heard run comes late or never) or a little way in.
        let hearsFewWords =
            Double(found.filter(NarrationAligner.isHeard).count)
            < 0.5 * settings.wordsPerSecond * Double((windowEnd - cursor) / rate)
        let startsElsewhere =
            firstRun(of: NarrationAligner.shortestMissingRun, in: found).map { $0 >= Self.confirmingLeadWords } ?? true
        if hearsFewWords, !startsElsewhere, let uncovered = Self.uncoveredSpeech(in: found, speech: windowSpeech) {
            // The words stop fitting after a heard start: only the words before the speech
            // they leave out are the text; the next window starts there, and finds where the
            // text goes on.
            keepBeforeMs = min(keepBeforeMs, uncovered)
            settlesAll = false
        }
        let window = Window(
            samples: windowSamples, reference: reference, end: windowEnd, isLast: isLast, found: found,
            anchor: anchor(in: found, isLast: settlesAll, keepBeforeMs: keepBeforeMs), hearsFewWords: hearsFewWords,
            startsElsewhere: startsElsewhere)
        guard let settled = try advance(&state, past: window, texts: texts, samples: samples) else { return nil }
        return NarrationCheckpoint(
            cursor: state.cursor, nextWord: state.next, speechFrame: speechFrame, speech: windowSpeech,
            firstWord: firstWord, placements: settled)
    }

    /// A window placed: its audio, its phone loop, where it ends, its words' placements, the last
    /// word it may settle, whether it hears far fewer words than its audio holds and whether its
    /// first heard run comes late or never.
    private struct Window {
        var samples: ArraySlice<Int16>
        var reference: PhoneLoopReference
        var end: Int
        var isLast: Bool
        var found: [WordPlacement?]
        var anchor: Int?
        var hearsFewWords: Bool
        var startsElsewhere: Bool
    }

    /// Moves `state` past `window`: to where the text goes on after a skip, past its settled words,
    /// to where the text goes on further into it, or past its audio when none of it is the text.
    /// The placements settled (in the recording's time), or nil when a last window settles none.
    private func advance(
        _ state: inout SegmentState, past window: Window, texts: ArraySlice<String>, samples: RecognizerAudio
    ) throws -> [WordPlacement?]? {
        let rate = PocketSphinxDecoder.sampleRate
        let offsetMs = state.cursor * 1000 / rate
        let described =
            "narration window at \(offsetMs) ms, words \(state.next)..<\(state.next + window.found.count): \(NarrationAligner.heardShare(window.found)) heard"
        // Where the window's first words are not what it starts with, or nothing settles,
        // the narrator may have skipped ahead: the text is looked for further on first.
        if window.startsElsewhere || window.anchor == nil, window.hearsFewWords,
            let resumed = try skippedAhead(from: state.next, at: state.cursor, texts: texts, samples: samples)
        {
            // A paragraph left out where this window starts: the words passed over stay
            // unheard, and the text goes on where the recording is (an anchor found further
            // on would be words of the skipped text fitted to what was read instead).
            ForgeLog.debug(
                "\(described), not from its first words; the text goes on at word \(resumed.word), sample \(resumed.sample)"
            )
            (state.next, state.cursor) = resumed
            return []
        }
        if let anchor = window.anchor, let anchorEnd = window.found[anchor]?.endMs {
            let settled = window.found[...anchor].map { $0?.shifted(by: offsetMs) }
            state.settle(Array(settled), from: state.next)
            ForgeLog.debug("\(described), settled to word \(state.next + anchor)")
            state.next += anchor + 1
            state.cursor += anchorEnd * rate / 1000
            return Array(settled)
        }
        if let resumed = try NarrationAligner.textAhead(
            of: state.next, texts: texts, wordsPerWindow: settings.wordsPerWindow, samples: window.samples,
            reference: window.reference, aligner: aligner)
        {
            // The recording goes on further into the text (the narrator skipped a page):
            // the words passed over stay unheard, and the window is aligned from there.
            ForgeLog.debug("\(described), no anchor; the text goes on at word \(resumed)")
            state.next = resumed
            return []
        }
        if window.isLast { return nil }
        // Nothing here is the text (music, a passage the text lacks, the wrong recording): pass
        // over the window's audio; the text waits for the next one.
        ForgeLog.debug("\(described), no anchor; audio passed over")
        state.cursor = window.end - settings.marginSeconds * rate
        return []
    }

    /// Where the text picks up in the recording at or after `sample`: the first word of the first
    /// run of confidently heard words found in `ranges` of the words (looked in one after the
    /// other, nearest the likeliest place first: each search's memory grows with its words), and
    /// the sample it starts at (halfway into the pause before it, when the word before was heard
    /// too). Tries a few short snippets from `sample` on (music or an unread passage may sit
    /// there); nil when none finds the text.
    /// With `pathStart` (the recording's start), the path may begin after other speech (an
    /// intro), and the word it begins with is returned instead (the words between it and the
    /// run are the text too, only heard less surely: the text's start is not later); with
    /// `afterOtherSpeech` alone it may begin so too, and the run is returned. With
    /// `leadingWords`, the words the path places right before the run, each within
    /// ``leadingWordGapMs`` of the next, are taken for the text too (short lines of dialogue
    /// after a skip, heard less surely than a run of six).
    func boundary(
        near sample: Int, words ranges: [Range<Int>], texts: ArraySlice<String>, samples: RecognizerAudio,
        pathStart: Bool = false, leadingWords: Bool = false, afterOtherSpeech: Bool = false, attempts: Int = 3
    ) throws -> (word: Int, sample: Int)? {
        let rate = PocketSphinxDecoder.sampleRate
        let snippet = Self.locateSeconds * rate
        let run = 2 * NarrationAligner.shortestMissingRun
        for attempt in 0..<attempts {
            let start = sample + attempt * snippet
            guard start + snippet <= samples.count else { return nil }
            let audio = samples.samples(start..<(start + snippet))[...]
            let reference = try aligner.phoneLoop(audio)
            for range in ranges {
                let clock = ContinuousClock.now
                let found = try aligner.locate(
                    Array(texts[range]), in: audio, reference: reference,
                    afterOtherSpeech: pathStart || afterOtherSpeech)
                ForgeLog.debug(
                    "narration cut near sample \(sample): words \(range) searched at sample \(start) in \(ContinuousClock.now - clock), \(found.compactMap { $0 }.count) placed"
                )
                guard let runStart = firstRun(of: run, in: found) else { continue }
                var first = pathStart ? found.firstIndex { $0 != nil } ?? runStart : runStart
                while leadingWords, first > 0, let before = found[first - 1], let current = found[first],
                    current.startMs - before.endMs < Self.leadingWordGapMs
                {
                    first -= 1
                }
                guard let word = found[first] else { continue }
                var startMs = word.startMs
                if first > 0, let before = found[first - 1], before.endMs <= startMs {
                    startMs = (before.endMs + startMs) / 2
                }
                let place = (word: range.lowerBound + first, sample: start + startMs * rate / 1000)
                guard try isConfirmed(place, texts: texts, samples: samples) else {
                    ForgeLog.debug(
                        "narration cut near sample \(sample): word \(place.word) at sample \(place.sample) is not heard from there on; looked for again"
                    )
                    continue
                }
                return place
            }
        }
        return nil
    }

    /// The longest pause between the words a path places before its first confidently heard
    /// run that are still taken for the text (see ``boundary(near:words:texts:samples:pathStart:leadingWords:afterOtherSpeech:attempts:)``).
    static let leadingWordGapMs = 1_500

    /// Where the text picks up when a window's audio is not at its first words `next`: the
    /// narrator skipped ahead. Looked for as a segment's start is (a locating search of the
    /// window's first ``locateSeconds`` among the words up to three half-windows on, confirmed by
    /// a plain search from there), so the words read right after the skip are placed, not passed
    /// over with it; words before the run it finds are taken up too when they are heard as the
    /// text (``leadIn(to:after:from:texts:samples:)``). Nil when the text is not found further on there.
    func skippedAhead(from next: Int, at cursor: Int, texts: ArraySlice<String>, samples: RecognizerAudio) throws
        -> (word: Int, sample: Int)?
    {
        let upper = min(texts.endIndex, next + 3 * max(1, settings.wordsPerWindow / 2) + settings.wordsPerWindow)
        guard upper - next > 2 * NarrationAligner.shortestMissingRun else { return nil }
        // The window may start inside speech that is not the text's next words (the end of a
        // word the window before misplaced): looked for again past any speech before it, among
        // a window's words only (a search entered after other speech keeps every word alive each
        // frame). Not first: speech before the text costs little, and words the model hears
        // badly would go to it.
        let searches = [(next..<upper, false), (next..<min(upper, next + settings.wordsPerWindow), true)]
        for (words, afterOtherSpeech) in searches {
            if let place = try boundary(
                near: cursor, words: [words], texts: texts, samples: samples, leadingWords: true,
                afterOtherSpeech: afterOtherSpeech, attempts: 1)
            {
                guard place.word > next else { return nil }
                return try leadIn(to: place, after: next, from: cursor, texts: texts, samples: samples)
            }
        }
        return nil
    }

    /// Where the narrator took the text up again after a skip, when it is before `place` (the
    /// run of confidently heard words ``skippedAhead(from:at:texts:samples:)`` found): the words
    /// said between the skip and the run are read as the text is, though too few of them may be
    /// heard surely in a row to be found by themselves. From each onset after a pause in the
    /// audio before the run (earliest first, from `cursor` on), the words before the run are
    /// looked for in the audio up to it; the first path that runs into the run and hears at least
    /// half its words gives the place. `place` itself when none does.
    func leadIn(
        to place: (word: Int, sample: Int), after next: Int, from cursor: Int, texts: ArraySlice<String>,
        samples: RecognizerAudio
    ) throws -> (word: Int, sample: Int) {
        let rate = PocketSphinxDecoder.sampleRate
        let samplesPerFrame = rate / PocketSphinxDecoder.framesPerSecond
        let region = max(cursor, place.sample - Self.locateSeconds * rate)..<place.sample
        let firstWord = max(next, place.word - settings.wordsPerWindow)
        guard region.count > rate, place.word - firstWord >= NarrationAligner.shortestMissingRun else { return place }
        let onsets = SpeechOnsets(samples: samples.samples(region)[...]).onsets(afterPausesOf: Self.leadInPauseMs)
        for onset in onsets.prefix(Self.leadInOnsets) {
            let start = max(region.lowerBound, region.lowerBound + onset * samplesPerFrame - rate / 10)
            guard place.sample - start >= rate / 2 else { break }
            let audio = samples.samples(start..<place.sample)[...]
            let found = try aligner.locate(
                Array(texts[firstWord..<place.word]), in: audio, reference: try aligner.phoneLoop(audio))
            guard let first = found.firstIndex(where: { $0 != nil }), let entered = found[first],
                found.filter(NarrationAligner.isHeard).count >= NarrationAligner.shortestMissingRun
            else { continue }
            // The search may stop before the run (a word it hears badly); the words from where it
            // entered must fill the audio up to the run, each in turn, and be heard as the text's.
            let from = start + entered.startMs * rate / 1000
            let said = samples.samples(from..<place.sample)[...]
            let placed = try aligner.place(
                Array(texts[(firstWord + first)..<place.word]), in: said, openEnded: false,
                reference: try aligner.phoneLoop(said))
            guard NarrationAligner.heardShare(placed) >= 0.5 else { continue }
            ForgeLog.debug(
                "the text after the skip goes on at word \(firstWord + first), \(place.word - firstWord - first) word(s) before the run found"
            )
            return (firstWord + first, from)
        }
        return place
    }

    /// The pause before an onset the text may be taken up again at after a skip.
    static let leadInPauseMs = 250
    /// The onsets before a found run ``leadIn(to:after:from:texts:samples:)`` tries at most.
    static let leadInOnsets = 4

    /// Whether the text from `place.word` on is heard from `place.sample` on, by a plain window's
    /// search of ``locateSeconds``. A locating search (narrow beams, entered anywhere in
    /// thousands of words) now and then ends on a run of words said a few minutes away whose
    /// durations and fit pass: the 10-chapter benchmark's sixth cut put word 9163 where words
    /// ~9,500 are read, and the segments on either side lost 381 words. A true place hears the
    /// words a narrator says from its first few on; a false one hears a few here and there.
    func isConfirmed(_ place: (word: Int, sample: Int), texts: ArraySlice<String>, samples: RecognizerAudio) throws
        -> Bool
    {
        let rate = PocketSphinxDecoder.sampleRate
        let end = min(samples.count, place.sample + Self.locateSeconds * rate)
        let count = min(
            texts.endIndex - place.word,
            settings.wordsPerWindow * Self.locateSeconds / settings.windowSeconds + NarrationAligner.shortestMissingRun)
        // Too little audio or text left to judge by: the locating search's own run stands.
        guard end - place.sample >= Self.locateSeconds * rate / 2, count >= 4 * NarrationAligner.shortestMissingRun
        else { return true }
        let audio = samples.samples(place.sample..<end)[...]
        let found = try aligner.place(
            Array(texts[place.word..<(place.word + count)]), in: audio, openEnded: true,
            reference: try aligner.phoneLoop(audio))
        guard let run = firstRun(of: NarrationAligner.shortestMissingRun, in: found) else { return false }
        // Heard words per second of audio, not a share of the words given: how many a window is
        // given grows with how long the text is against the recording, what a narrator says does not.
        let heard = Double(found.filter(NarrationAligner.isHeard).count)
        let seconds = Double(end - place.sample) / Double(rate)
        return run < Self.confirmingLeadWords
            && heard >= min(Double(count) / 2, Self.confirmingWordsPerSecond * seconds)
    }

    /// How many words at a cut may go unheard before the text's run (a word the search was
    /// unsure of, the cut a word early).
    static let confirmingLeadWords = 10
    /// The fewest words per second a confirming search hears at a true place (or half its
    /// words, when the text ends sooner). Measured: a true place 2 a second, false ones 0.25–0.4.
    static let confirmingWordsPerSecond = 0.75

    /// Where the first run of `length` confidently heard placements begins.
    private func firstRun(of length: Int, in found: [WordPlacement?]) -> Int? {
        var run = 0
        for (index, placement) in found.enumerated() {
            guard let placement else {
                run = 0
                continue
            }
            run =
                NarrationAligner.confidence(placement) >= settings.anchorConfidence
                    && NarrationAligner.isHeard(placement) ? run + 1 : 0
            if run >= length { return index + 1 - run }
        }
        return nil
    }

    /// Which 10 ms frames of `range` (16 kHz samples) hold speech, for audio no window aligns
    /// (before the text starts): a speech phone in the phone loop where there is sound.
    func speech(in range: Range<Int>, samples: RecognizerAudio) throws -> [Bool] {
        var speech: [Bool] = []
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(range.upperBound, start + settings.windowSeconds * PocketSphinxDecoder.sampleRate)
            let audio = samples.samples(start..<end)[...]
            let reference = try aligner.phoneLoop(audio)
            let onsets = SpeechOnsets(samples: audio)
            let frames = (end - start) / (PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond)
            speech += Self.speech(reference, onsets).prefix(frames)
            start = end
        }
        return speech
    }

    /// What a window loses when its search is tried again for having found no path: half a second.
    static let trimmedEnd = PocketSphinxDecoder.sampleRate / 2

    /// The audio a boundary is looked for in, per try.
    static let locateSeconds = 20

    /// One window's words placed in its audio: openly (again without its last half second when the
    /// search found no path at all); again allowing words to be skipped when a
    /// run of unheard words sits among heard ones; and, in the segment's last window, again with
    /// only the words up to the last run heard when the text goes on past the recording.
    private func placeWindow(
        _ windowTexts: [String], in windowSamples: ArraySlice<Int16>, reference: PhoneLoopReference, isLast: Bool
    ) throws -> [WordPlacement?] {
        var found = try aligner.place(windowTexts, in: windowSamples, openEnded: true, reference: reference)
        if !windowTexts.isEmpty, found.allSatisfy({ $0 == nil }), windowSamples.count > 2 * Self.trimmedEnd {
            // No path at all ("final result does not match the grammar"): pocketsphinx finds
            // none now and then when the audio ends inside a word — the same window a little
            // shorter or longer is aligned. Not a sign that nothing here is the text: try again
            // without its last half second, which the next window reads anyway.
            found = try aligner.place(
                windowTexts, in: windowSamples.dropLast(Self.trimmedEnd), openEnded: true, reference: reference)
        }
        if settings.retriesSkips, NarrationAligner.looksWrong(found), NarrationAligner.heardShare(found) >= 0.3 {
            // A run of unheard words among heard ones: the narrator probably skipped
            // something. Try again letting words be passed over, and keep whichever reads
            // better. (Not where almost nothing was heard: skipping cannot fix the wrong text,
            // and the wider search's memory grows with its audio.)
            // Each of its searches runs alone (``SearchGate``): it holds far more than a window's
            // plain search.
            let retry = try placeAllowingSkips(windowTexts, in: windowSamples, reference: reference).placements
            if NarrationAligner.quality(retry) > NarrationAligner.quality(found) { found = retry }
        }
        if isLast, let lastHeard = NarrationAligner.lastHeardRun(found),
            found.count - lastHeard - 1 >= NarrationAligner.shortestMissingRun
        {
            // The recording ends before the text: with words to spare, the search hurries
            // through the last spoken words to fit more in. Try again with only the words
            // up to the last one heard, and keep that if it hears as many.
            let trimmed = try aligner.place(
                Array(windowTexts[...lastHeard]), in: windowSamples, openEnded: true, reference: reference)
            if trimmed.filter(NarrationAligner.isHeard).count >= found.filter(NarrationAligner.isHeard).count {
                found = trimmed + [WordPlacement?](repeating: nil, count: found.count - trimmed.count)
            }
        }
        return found
    }

    /// Where a window's placed words stop covering its speech: the end of the last word before
    /// the first stretch of ``uncoveredSpeechMs`` of speech (the phone loop's) between two
    /// placed words. Nil when the words cover the speech.
    static func uncoveredSpeech(in found: [WordPlacement?], speech: [Bool]) -> Int? {
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        var previousEnd: Int?
        for placement in found.compactMap({ $0 }) {
            if let end = previousEnd {
                let frames = (end / frameMs)..<max(end / frameMs, min(speech.count, placement.startMs / frameMs))
                if frames.filter({ speech[$0] }).count * frameMs >= uncoveredSpeechMs { return end }
            }
            previousEnd = placement.endMs
        }
        return nil
    }

    /// Speech between two placed words that says the text stopped fitting there: as much as a
    /// report counts as audio without text. A search given a skipped paragraph stretches the
    /// words before it over the words read after it, a word per pause, leaving little more than
    /// a second of speech uncovered between two of them.
    static let uncoveredSpeechMs = NarrationAligner.shortestUnmatchedSpeechMs

    /// The most audio one search that may skip words is given: its memory grows with its audio,
    /// and a whole window's would set the sync's peak. A window is searched in pieces this long.
    static let skipSearchSeconds = 24
    /// The stretch at a piece's end whose words are left for the next piece (as a window's are
    /// for the next window: the search hurries through the last words of its audio).
    static let skipMarginSeconds = 8

    /// `texts` placed in `samples` by searches that may pass over words, piece by piece
    /// (``skipSearchSeconds``): each piece after the first starts at the end of the last
    /// confidently heard word the piece before settled (as windows do), and ends the search
    /// where none was. Words no piece reached stay nil. `pieces` are the stretches of `samples`
    /// searched (offsets from its start).
    func placeAllowingSkips(
        _ texts: [String], in samples: ArraySlice<Int16>, reference: PhoneLoopReference
    ) throws -> (placements: [WordPlacement?], pieces: [Range<Int>]) {
        let rate = PocketSphinxDecoder.sampleRate
        let samplesPerFrame = rate / PocketSphinxDecoder.framesPerSecond
        var placements = [WordPlacement?](repeating: nil, count: texts.count)
        var pieces: [Range<Int>] = []
        var start = 0
        var next = 0
        while next < texts.count && start < samples.count {
            var end = min(samples.count, start + Self.skipSearchSeconds * rate)
            let isLast = samples.count - end < Self.skipMarginSeconds * rate
            if isLast { end = samples.count }
            pieces.append(start..<end)
            let piece = samples[(samples.startIndex + start)..<(samples.startIndex + end)]
            let found = try aligner.place(
                Array(texts[next...]), in: piece, openEnded: true, allowSkips: true,
                reference: reference.frames((start / samplesPerFrame)..<(end / samplesPerFrame + 1)))
            let offsetMs = start * 1000 / rate
            let keepBeforeMs = (end - start) * 1000 / rate - Self.skipMarginSeconds * 1000
            // Where no run was heard before the margin, the piece's placements stand as found
            // and the search ends there: the window settles what it can of them.
            let settled = anchor(in: found, isLast: isLast, keepBeforeMs: keepBeforeMs)
            for (index, placement) in found.prefix(settled.map { $0 + 1 } ?? found.count).enumerated() {
                placements[next + index] = placement?.shifted(by: offsetMs)
            }
            guard !isLast, let settled, let settledEnd = found[settled]?.endMs else { break }
            next += settled + 1
            // Word ends fall on frame edges (10 ms), so the next piece's frames are the reference's.
            start += settledEnd * rate / 1000
        }
        return (placements, pieces)
    }

    /// Where a window's settled words end: the last word of a run of confidently heard words
    /// before the margin (one word of another text fits its audio by chance now and then, three
    /// in a row do not); in the last window, the last placed word when any run was heard.
    private func anchor(in found: [WordPlacement?], isLast: Bool, keepBeforeMs: Int) -> Int? {
        // The last window keeps every placement when any run was heard (each word is judged
        // when the spans are made).
        var anchor: Int?
        if isLast {
            if NarrationAligner.lastHeardRun(found) != nil { anchor = found.lastIndex { $0 != nil } }
        } else {
            var run = 0
            for (index, placement) in found.enumerated() {
                guard let placement else { continue }
                if placement.endMs > keepBeforeMs { break }
                run =
                    NarrationAligner.confidence(placement) >= settings.anchorConfidence
                        && NarrationAligner.isHeard(placement) ? run + 1 : 0
                if run >= NarrationAligner.shortestMissingRun { anchor = index }
            }
        }
        return anchor
    }

    /// Which frames hold speech: a speech phone in the phone loop, where there is sound.
    private static func speech(_ reference: PhoneLoopReference, _ onsets: SpeechOnsets) -> [Bool] {
        reference.speech.indices.map { reference.speech[$0] && onsets.isSound($0) }
    }

}
