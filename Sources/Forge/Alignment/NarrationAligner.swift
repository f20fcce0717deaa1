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
package final class NarrationAligner {
    package var windowSeconds = 60
    /// The stretch at a window's end whose words are left for the next window.
    package var marginSeconds = 12
    /// Words at least this confident can anchor the next window.
    package var anchorConfidence = 0.5
    /// A narrator's fastest plausible pace; windows never hold more words than this allows, so a
    /// text far longer than its recording costs no more than the right one.
    package var maxWordsPerSecond = 4.0

    /// A word fits its audio when its forced path scores at most this much worse than the
    /// phone loop, per frame. Measured on human narration (LibriVox readings): no word of the
    /// right text below −2.5 (median −0.3 to +0.1), 85% of another text's words below −3
    /// (median −4.9). Synthetic voices the acoustic model fits less well score lower: espeak-ng's
    /// Klatt and f3 voices as human speech, its default voices 10–50% of words below −3.
    static let heardFit = -3.0
    /// Where a word's fit gives it full confidence, and none (an anchor needs 0.5: −3).
    static let fitRange = (none: -4.5, full: -1.5)
    /// Unheard runs shorter than this inside heard text are a mumbled word, not missing text.
    static let shortestMissingRun = 3
    /// Speech not covered by heard words counts as audio without text from this much on, with
    /// gaps up to `speechGapMs` inside it.
    static let shortestUnmatchedSpeechMs = 1_000
    static let speechGapMs = 500

    private let aligner: ForcedAligner

    package init(aligner: ForcedAligner) {
        self.aligner = aligner
    }

    /// Aligns `words` (offsets into one text) to `audio`; progress is the fraction of the audio done.
    package func align(words: [WordToken], audio: DecodedAudio, progress: (Double) -> Void = { _ in }) throws -> NarrationAlignment {
        let samples = RecognizerAudio(samples: RecognizerInput.samples(audio.samples[...], from: audio.sampleRate))
        return try align(words: words, samples: samples, durationMs: audio.durationMs, progress: progress)
    }

    /// Aligns `words` to `samples` (16 kHz), reading one window at a time.
    ///
    /// `resumingFrom` are the checkpoints an interrupted run of the same words and samples
    /// saved, in order: the alignment goes on after the last. `checkpoint` is given each
    /// window's as it is done (what it throws stops the alignment).
    func align(
        words: [WordToken], samples: RecognizerAudio, durationMs: Int, resumingFrom checkpoints: [NarrationCheckpoint] = [],
        checkpoint: (NarrationCheckpoint) throws -> Void = { _ in }, progress: (Double) -> Void = { _ in }
    ) throws -> NarrationAlignment {
        let rate = PocketSphinxDecoder.sampleRate
        let samplesPerFrame = rate / PocketSphinxDecoder.framesPerSecond
        let texts = words.map(\.text)
        var placements = [WordPlacement?](repeating: nil, count: words.count)
        var speech = [Bool](repeating: false, count: samples.count / samplesPerFrame + 1)
        guard !words.isEmpty, samples.count > 0 else {
            return Self.result(words: words, placements: placements, speech: speech, durationMs: durationMs)
        }
        let audioSeconds = Double(samples.count) / Double(rate)
        let wordsPerSecond = min(maxWordsPerSecond, Double(words.count) / max(1, audioSeconds))
        let wordsPerWindow = Int(wordsPerSecond * Double(windowSeconds) * 1.5) + 20
        let window = windowSeconds * rate
        let margin = marginSeconds * rate
        var cursor = 0
        var next = 0
        if Self.canResume(from: checkpoints, words: words.count, samples: samples.count) {
            for saved in checkpoints {
                for (frame, isSpeech) in saved.speech.enumerated() where saved.speechFrame + frame < speech.count {
                    speech[saved.speechFrame + frame] = isSpeech
                }
                for (index, placement) in saved.placements.enumerated() { placements[saved.firstWord + index] = placement }
                cursor = saved.cursor
                next = saved.nextWord
            }
            progress(Double(cursor) / Double(samples.count))
        }
        while next < words.count && cursor < samples.count {
            var end = min(samples.count, cursor + window)
            let isLast = samples.count - end < margin
            if isLast { end = samples.count }
            let count = min(words.count - next, wordsPerWindow)
            let windowTexts = Array(texts[next..<(next + count)])
            let windowSamples = samples.samples(cursor..<end)[...]
            let reference = try aligner.phoneLoop(windowSamples)
            let onsets = SpeechOnsets(samples: windowSamples)
            let firstFrame = cursor / samplesPerFrame
            let firstWord = next
            // Speech: a speech phone in the phone loop, where there is sound (on digital
            // silence the acoustic model hears anything).
            let windowSpeech = reference.speech.indices.map { reference.speech[$0] && onsets.isSound($0) }
            for (frame, isSpeech) in windowSpeech.enumerated() where firstFrame + frame < speech.count {
                speech[firstFrame + frame] = isSpeech
            }
            var found = try placeWindow(windowTexts, in: windowSamples, reference: reference, isLast: isLast)
            found = onsets.snapped(found)
            let offsetMs = cursor * 1000 / rate
            // Keep the words before the margin (all of them in the last window); the next window
            // starts at the end of the last confident one.
            let keepBeforeMs = (end - margin - cursor) * 1000 / rate
            let anchor = anchor(in: found, isLast: isLast, keepBeforeMs: keepBeforeMs)
            var settled: [WordPlacement?] = []
            if let anchor, let anchorEnd = found[anchor]?.endMs {
                settled = found[...anchor].map { $0.map { shifted($0, by: offsetMs) } }
                for (index, placement) in settled.enumerated() { placements[next + index] = placement }
                next += anchor + 1
                cursor += anchorEnd * rate / 1000
            } else if let resumed = try Self.textAhead(
                of: next, texts: texts, wordsPerWindow: wordsPerWindow, samples: windowSamples, reference: reference, aligner: aligner)
            {
                // The recording goes on further into the text (the narrator skipped a page):
                // the words passed over stay unheard, and the window is aligned from there.
                next = resumed
            } else if isLast {
                break
            } else {
                // Nothing here is the text (music, a passage the text lacks, the wrong
                // recording): pass over the window's audio; the text waits for the next one.
                cursor = end - margin
            }
            try checkpoint(NarrationCheckpoint(
                cursor: cursor, nextWord: next, speechFrame: firstFrame, speech: windowSpeech, firstWord: firstWord, placements: settled))
            progress(Double(cursor) / Double(samples.count))
        }
        progress(1)
        return Self.result(words: words, placements: placements, speech: speech, durationMs: durationMs)
    }

    /// One window's words placed in its audio: openly; again allowing words to be skipped when a
    /// run of unheard words sits among heard ones; and, in the recording's last window, again with
    /// only the words up to the last run heard when the text goes on past the recording.
    private func placeWindow(
        _ windowTexts: [String], in windowSamples: ArraySlice<Int16>, reference: PhoneLoopReference, isLast: Bool
    ) throws -> [WordPlacement?] {
        var found = try aligner.place(windowTexts, in: windowSamples, openEnded: true, reference: reference)
        if Self.looksWrong(found) && Self.heardShare(found) >= 0.3 {
            // A run of unheard words among heard ones: the narrator probably skipped
            // something. Try again letting words be passed over, and keep whichever reads
            // better. (Not where almost nothing was heard: skipping cannot fix the wrong text,
            // and the wider search held 900 MB for a minute of audio.)
            let retry = try aligner.place(windowTexts, in: windowSamples, openEnded: true, allowSkips: true, reference: reference)
            if Self.quality(retry) > Self.quality(found) { found = retry }
        }
        if isLast, let lastHeard = Self.lastHeardRun(found), found.count - lastHeard - 1 >= Self.shortestMissingRun {
            // The recording ends before the text: with words to spare, the search hurries
            // through the last spoken words to fit more in. Try again with only the words
            // up to the last one heard, and keep that if it hears as many.
            let trimmed = try aligner.place(Array(windowTexts[...lastHeard]), in: windowSamples, openEnded: true, reference: reference)
            if trimmed.filter(Self.isHeard).count >= found.filter(Self.isHeard).count {
                found = trimmed + [WordPlacement?](repeating: nil, count: found.count - trimmed.count)
            }
        }
        return found
    }

    /// Where a window's settled words end: the last word of a run of confidently heard words
    /// before the margin (one word of another text fits its audio by chance now and then, three
    /// in a row do not); in the last window, the last placed word when any run was heard.
    private func anchor(in found: [WordPlacement?], isLast: Bool, keepBeforeMs: Int) -> Int? {
        // The last window keeps every placement when any run was heard (each word is judged
        // when the spans are made).
        var anchor: Int?
        if isLast {
            if Self.lastHeardRun(found) != nil { anchor = found.lastIndex { $0 != nil } }
        } else {
            var run = 0
            for (index, placement) in found.enumerated() {
                guard let placement else { continue }
                if placement.endMs > keepBeforeMs { break }
                run = Self.confidence(placement) >= anchorConfidence && Self.isHeard(placement) ? run + 1 : 0
                if run >= Self.shortestMissingRun { anchor = index }
            }
        }
        return anchor
    }

    /// Whether `checkpoints` can be from a run over this many words and samples (a damaged or
    /// foreign list is ignored: the alignment starts over).
    static func canResume(from checkpoints: [NarrationCheckpoint], words: Int, samples: Int) -> Bool {
        !checkpoints.isEmpty && checkpoints.allSatisfy { saved in
            saved.cursor >= 0 && saved.cursor <= samples && saved.nextWord >= 0 && saved.nextWord <= words
                && saved.firstWord >= 0 && saved.firstWord + saved.placements.count <= words && saved.speechFrame >= 0
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
        of next: Int, texts: [String], wordsPerWindow: Int, samples: ArraySlice<Int16>, reference: PhoneLoopReference, aligner: ForcedAligner
    ) throws(RecognitionError) -> Int? {
        let stride = max(1, wordsPerWindow / 2)
        for step in 1...3 {
            let start = next + step * stride
            guard start < texts.count else { return nil }
            let candidate = Array(texts[start..<min(texts.count, start + wordsPerWindow)])
            let found = try aligner.place(candidate, in: samples, openEnded: true, reference: reference)
            if let run = lastHeardRun(found), found[...run].filter(isHeard).count >= 2 * shortestMissingRun { return start }
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

    /// The timings, heard words and spans of a finished alignment.
    static func result(words: [WordToken], placements: [WordPlacement?], speech: [Bool], durationMs: Int) -> NarrationAlignment {
        var heard = placements.map(isHeard)
        // A lone unheard word among heard ones is a word said quickly or indistinctly; only
        // runs of unheard words are text missing from the recording.
        var index = 0
        while index < heard.count {
            guard !heard[index] else { index += 1; continue }
            var end = index
            while end < heard.count && !heard[end] { end += 1 }
            let besideHeard = (index > 0 || end < heard.count) && heard.count > shortestMissingRun
            if end - index < shortestMissingRun && besideHeard && placements[index..<end].allSatisfy({ $0 != nil }) {
                for position in index..<end { heard[position] = true }
            }
            index = end
        }
        // And a short heard run amid unheard text (a "the" or "this" fitting a narrator's intro,
        // between front matter the recording does not hold) is chance, not the text heard.
        index = 0
        while index < heard.count {
            guard heard[index] else { index += 1; continue }
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
        // Unheard words keep no placement: their timings are interpolated between heard ones.
        // Words past the last heard one (text the recording does not reach) are not squeezed
        // into the recording's end, which would push the heard words before them earlier: they
        // get a 1 ms mark where the recording ends.
        let kept = zip(placements, heard).map { placement, isHeard in isHeard ? placement.map(withConfidence) : nil }
        let head = (heard.lastIndex(of: true) ?? -1) + 1
        var alignment = ForcedAlignment.complete(words: Array(words[..<head]), placements: Array(kept[..<head]), durationMs: durationMs)
        // An unheard word's timing is spread between heard ones, pauses included: one that
        // would start in a pause starts where the speech after it does, if inside the word.
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        for position in 0..<head where !heard[position] {
            let timing = alignment.timings[position]
            var frame = timing.startMs / frameMs
            guard frame < speech.count, !speech[frame] else { continue }
            while frame < speech.count && !speech[frame] && (frame + 1) * frameMs < timing.endMs { frame += 1 }
            if frame < speech.count && speech[frame] { alignment.timings[position].startMs = frame * frameMs }
        }
        // A word with no speech under it at all (a short word the recognizer left in the pause
        // before its sentence) moves to the end of the pause, against the word after it.
        if head >= 2 {
            for position in stride(from: head - 2, through: 0, by: -1) {
                let timing = alignment.timings[position]
                let nextStart = alignment.timings[position + 1].startMs
                guard nextStart > timing.endMs else { continue }
                let frames = (timing.startMs / frameMs)..<min(speech.count, max(timing.startMs / frameMs + 1, timing.endMs / frameMs))
                guard !frames.isEmpty, !frames.contains(where: { speech[$0] }) else { continue }
                alignment.timings[position] = WordTiming(startMs: nextStart - (timing.endMs - timing.startMs), endMs: nextStart)
            }
        }
        let tailStart = min(max(0, durationMs - 1), alignment.timings.last?.endMs ?? 0)
        alignment.timings += repeatElement(WordTiming(startMs: tailStart, endMs: tailStart + 1), count: words.count - head)
        alignment.confidences += repeatElement(nil, count: words.count - head)
        for position in placements.indices where !heard[position] { alignment.confidences[position] = placements[position].map(confidence) ?? 0 }
        let (spans, unmatchedSpeechFrames) = Self.spans(heard: heard, timings: alignment.timings, speech: speech, durationMs: durationMs)
        return NarrationAlignment(
            alignment: alignment, heard: heard, spans: spans, speechMs: speech.filter { $0 }.count * frameMs, unmatchedSpeechMs: unmatchedSpeechFrames * frameMs)
    }

    private static func withConfidence(_ placement: WordPlacement) -> WordPlacement {
        var placement = placement
        placement.confidence = confidence(placement)
        return placement
    }

    /// Matched and text-not-in-audio spans from runs of heard and unheard words, and
    /// audio-without-text spans where the recording holds speech no matched span covers, and
    /// how many frames of speech those hold.
    static func spans(heard: [Bool], timings: [WordTiming], speech: [Bool], durationMs: Int) -> (spans: [NarrationSpan], unmatchedSpeechFrames: Int) {
        var spans: [NarrationSpan] = []
        var index = 0
        var lastMatchedEnd = 0
        while index < heard.count {
            var end = index
            while end < heard.count && heard[end] == heard[index] { end += 1 }
            if heard[index] {
                spans.append(NarrationSpan(kind: .matched, startMs: timings[index].startMs, endMs: timings[end - 1].endMs, words: index..<end))
                lastMatchedEnd = timings[end - 1].endMs
            } else {
                // Where the words would be: between the heard words around them.
                let nextStart = end < heard.count ? timings[end].startMs : durationMs
                spans.append(NarrationSpan(kind: .textNotInAudio, startMs: lastMatchedEnd, endMs: max(lastMatchedEnd, nextStart), words: index..<end))
            }
            index = end
        }
        // Speech outside matched spans.
        let frameMs = 1000 / PocketSphinxDecoder.framesPerSecond
        var covered = [Bool](repeating: false, count: speech.count)
        for span in spans where span.kind == .matched {
            let first = max(0, span.startMs / frameMs)
            let last = min(speech.count, span.endMs / frameMs + 1)
            if first < last { for frame in first..<last { covered[frame] = true } }
        }
        var unmatched: [NarrationSpan] = []
        var runStart: Int?
        var runEnd = 0
        var runSpeech = 0
        var unmatchedFrames = 0
        func close() {
            if let start = runStart, runSpeech * frameMs >= shortestUnmatchedSpeechMs {
                unmatched.append(NarrationSpan(kind: .audioWithoutText, startMs: start * frameMs, endMs: min(durationMs, (runEnd + 1) * frameMs), words: 0..<0))
                unmatchedFrames += runSpeech
            }
            runStart = nil
            runSpeech = 0
        }
        for frame in speech.indices where speech[frame] && !covered[frame] {
            if let _ = runStart, (frame - runEnd) * frameMs > speechGapMs { close() }
            if runStart == nil { runStart = frame }
            runEnd = frame
            runSpeech += 1
        }
        close()
        let ordered = (spans + unmatched).sorted { ($0.startMs, $0.kind == .audioWithoutText ? 1 : 0) < ($1.startMs, $1.kind == .audioWithoutText ? 1 : 0) }
        return (ordered, unmatchedFrames)
    }

    private func shifted(_ placement: WordPlacement, by ms: Int) -> WordPlacement {
        WordPlacement(startMs: placement.startMs + ms, endMs: placement.endMs + ms, confidence: placement.confidence, fit: placement.fit)
    }
}
