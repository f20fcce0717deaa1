import Foundation
import Testing

@testable import Forge

/// The sync's design: Forge's own reading warped onto the recording places the words, and the
/// acoustic model examines only the stretches the warp cannot settle.
@Suite("Narration aligned by Forge's own reading")
struct WarpedNarrationTests {
    /// The sample's paragraphs, each on one line.
    static let paragraphs: [String] = Fixtures.sampleText.components(separatedBy: "\n\n").map {
        $0.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
    }
    .filter { !$0.isEmpty }

    /// A narrator's reading of `paragraphs` in another voice and pace than Forge's own (en-gb at
    /// 160 words a minute, half a second between paragraphs), at 16 kHz, and where each word starts.
    static func recording(of paragraphs: [String]) throws -> (samples: RecognizerAudio, starts: [Int]) {
        let engine = try EspeakEngine()
        var samples: [Int16] = []
        var starts: [Int] = []
        for paragraph in paragraphs {
            let speech = try engine.synthesize(paragraph, voice: VoiceSettings(id: "en-gb", rate: 160), itemID: "n")
            let offset = samples.count * 1000 / speech.sampleRate
            starts += EventAligner.align(
                words: Tokenizer.words(in: paragraph), events: speech.events, durationMs: speech.durationMs
            ).map { $0.startMs + offset }
            samples += speech.samples + [Int16](repeating: 0, count: speech.sampleRate / 2)
        }
        return (RecognizerAudio(samples: RecognizerInput.samples(samples[...], from: 22050)), starts)
    }

    /// The examinations, one a line, for messages.
    static func described(_ outcome: WarpedNarrationAligner.Outcome) -> String {
        outcome.examinations.map {
            "\($0.reason) words \($0.words) at \($0.samples.lowerBound / 16_000)-\($0.samples.upperBound / 16_000) s heard \(String(describing: $0.heard))"
        }.joined(separator: "\n")
    }

    /// The paragraphs of the sample from `first` on, up to about five minutes of reading.
    static func text(from first: Int) -> [String] {
        var words = 0
        return Array(
            paragraphs[first...].prefix { paragraph in
                words += Tokenizer.words(in: paragraph).count
                return words < 850
            })
    }

    /// `text`'s words aligned to `samples` as a sync aligns them, with stretches scaled to a
    /// recording of minutes: its first and last 20 s, 5 s around a disagreement, a 10 s probe
    /// every `probeSpacing` seconds.
    static func align(_ text: [String], to samples: RecognizerAudio, probeSpacing: Int = 60) throws
        -> (outcome: WarpedNarrationAligner.Outcome, words: [WordToken])
    {
        var words: [WordToken] = []
        var offset = 0
        for paragraph in text {
            words += Tokenizer.words(in: paragraph).map {
                WordToken(index: words.count + $0.index, text: $0.text, start: $0.start + offset, end: $0.end + offset)
            }
            offset += paragraph.unicodeScalars.count + 1
        }
        let scratch = FileManager.default.temporaryDirectory
        let reading = try BookReading.make(texts: text, voice: VoiceSettings(id: "en-us"), directory: scratch)
        let recording = try FrameFile.reading(samples: samples, directory: scratch)
        let aligner = WarpedNarrationAligner(model: .standard, language: "en-us")
        aligner.edgeSeconds = 20
        aligner.marginSeconds = 5
        aligner.probeSeconds = 10
        aligner.probeSpacingSeconds = probeSpacing
        let outcome = try aligner.align(
            words: words, reading: reading, recording: recording.frames, sound: recording.sound, samples: samples,
            durationMs: samples.count / 16)
        return (outcome, words)
    }

    /// Word starts are moved onto speech onsets a minute of the recording at a time, in place:
    /// over minutes of a reading, with one thread or two, every word as that minute's
    /// onsets alone move it, and the words before the first minute's speech left where they were.
    @Test func wordStartsSnapOntoOnsetsMinuteByMinuteInPlace() throws {
        let (samples, starts) = try Self.recording(of: Array(Self.paragraphs.prefix(30)))
        let minute = 60 * PocketSphinxDecoder.sampleRate
        #expect(samples.count > minute + minute / 2, "the reading is \(samples.count / 16_000) s")
        // The true starts, each a quarter second late: snapping brings those after a pause back.
        let late = starts.map { WordPlacement(startMs: $0 + 250, endMs: $0 + 400, confidence: nil) as WordPlacement? }
        var expected: [WordPlacement?] = []
        for block in 0..<((samples.count + minute - 1) / minute) {
            let from = block * minute
            let offsetMs = from / 16
            let words = late.filter { ($0!.startMs * 16 >= from) && ($0!.startMs * 16 < from + minute) }
            let onsets = SpeechOnsets(samples: samples.samples(from..<min(samples.count, from + minute))[...])
            expected += onsets.snapped(words.map { $0?.shifted(by: -offsetMs) }).map { $0?.shifted(by: offsetMs) }
        }
        for jobs in [1, 2] {
            var placements = late
            try WarpedNarrationAligner.snap(&placements, samples: samples, jobs: jobs)
            let otherwise = zip(placements, expected).filter { $0.0 != $0.1 }.count
            #expect(
                placements.count == expected.count && otherwise == 0,
                "\(jobs) job(s): \(otherwise) of \(expected.count) words placed otherwise")
        }
        #expect(zip(expected, late).filter { $0.0 != $0.1 }.count >= 10, "snapping moved too few words")
    }

    /// The words the model did not examine are placed by the warp alone, as exactly as the bar for
    /// a sync asks; and most of the recording is never decoded (it would all be, were the
    /// stretches not chosen by the first pass).
    @Test func theFirstPassPlacesWhatTheModelDoesNotExamine() throws {
        let text = Self.text(from: 0)
        let (samples, truth) = try Self.recording(of: text)
        let (outcome, words) = try Self.align(text, to: samples)
        #expect(samples.count > 16_000 * 240, "a recording of minutes")
        #expect(
            Double(outcome.examinedSamples) < 0.5 * Double(samples.count),
            "\(outcome.examinedSamples) of \(samples.count) samples examined:\n\(Self.described(outcome))")
        let unheard = outcome.narration.unmatchedWords
        let foreign = outcome.foreign
        #expect(
            !foreign && unheard <= words.count / 100,
            "\(unheard) unheard: \(outcome.narration.heard.indices.filter { !outcome.narration.heard[$0] })\n\(Self.described(outcome))"
        )
        let examined = outcome.examinations.map(\.words)
        let errors = truth.indices.filter { word in !examined.contains { $0.contains(word) } }.map {
            abs(outcome.narration.alignment.timings[$0].startMs - truth[$0])
        }.sorted()
        #expect(errors.count > words.count / 3, "\(errors.count) words placed by the warp alone")
        #expect(errors[errors.count / 2] <= 60, "median \(errors[errors.count / 2]) ms")
        #expect(errors[errors.count * 95 / 100] <= 300, "p95 \(errors[errors.count * 95 / 100]) ms")
    }

    /// A paragraph the narrator skipped, away from the recording's ends and with no probe near it:
    /// only the warp's disagreement can send the model there, and the model then reports its words.
    @Test func aDisagreementTheWarpFlagsIsExaminedByTheModel() throws {
        let text = Self.text(from: 0)
        let skipped = try #require(
            text.indices.first { $0 >= text.count / 3 && Tokenizer.words(in: text[$0]).count >= 40 })
        let read = text.enumerated().filter { $0.offset != skipped }.map(\.element)
        let (samples, _) = try Self.recording(of: read)
        let (outcome, words) = try Self.align(text, to: samples, probeSpacing: 10_000)
        let first = text[..<skipped].reduce(0) { $0 + Tokenizer.words(in: $1).count }
        let skippedWords = first..<(first + Tokenizer.words(in: text[skipped]).count)
        #expect(
            outcome.examinations.contains { $0.reason == .disagreement && $0.words.overlaps(skippedWords) },
            "\(skippedWords)\n\(Self.described(outcome))")
        let unheard = skippedWords.filter { !outcome.narration.heard[$0] }.count
        #expect(unheard * 10 >= skippedWords.count * 9, "\(unheard) of \(skippedWords.count) skipped words unheard")
        let spans = outcome.narration.spans.filter { $0.kind == .textNotInAudio }
        #expect(spans.contains { $0.words.overlaps(skippedWords) }, "\(spans)")
        let others = outcome.narration.heard.indices.filter {
            !outcome.narration.heard[$0] && !skippedWords.contains($0)
        }
        // The words read right after the skip are heard, though the model hears too few of them
        // surely in a row to find them by themselves (the window's search stretched the words
        // before the skip over them, and the text was taken up again 18 words late).
        #expect(others.count <= words.count / 100, "\(others)\n\(Self.described(outcome))")
    }

    /// A stretch inside the recording starts where the warp put its first word, and its text is
    /// not looked for there: a locating search, the largest, runs alone. Where the start is not
    /// known (the recording's start, where an intro may come first), it is looked for.
    @Test func aStretchWhoseStartTheWarpGaveIsNotLookedForAgain() throws {
        var words = 0
        let text = Self.paragraphs.prefix { paragraph in
            defer { words += Tokenizer.words(in: paragraph).count }
            return words < 150
        }
        let (samples, _) = try Self.recording(of: Array(text))
        let texts = text.flatMap { Tokenizer.words(in: $0).map(\.text) }
        let settings = WindowAligner.Settings(
            windowSeconds: 60, marginSeconds: 12, anchorConfidence: 0.5,
            wordsPerWindow: WindowAligner.Settings.wordsPerWindow(wordsPerSecond: 3, seconds: 60))
        let lookingFor = try NarrationAligner(model: .standard, language: "en-us")
        _ = try lookingFor.segments(texts: texts, samples: samples, settings: settings)
        #expect(lookingFor.searchGate.largeSearchCount > 0)
        let given = try NarrationAligner(model: .standard, language: "en-us")
        let known = try given.segments(texts: texts, samples: samples, settings: settings, startKnown: true)
        #expect(known == [NarrationSegment(words: 0..<texts.count, samples: 0..<samples.count)])
        #expect(given.searchGate.largeSearchCount == 0)
    }

    /// A probe that did not hear its words is looked at again, wider, before the stretch around it
    /// is examined whole: the model, starting cold in 20 s, misses a hard stretch of a right reading
    /// about once in a hundred probes (7 of the 63-hour reading's, where the warp was right).
    @Test func aProbeThatFailsIsLookedAtAgainBeforeItsStretchIsExaminedWhole() throws {
        let aligner = WarpedNarrationAligner(model: .standard, language: "en-us")
        let frames = 100 * 3_600
        // A word every 40 frames (0.4 s) of an hour's recording.
        let plan = WarpedNarrationAligner.Plan(
            starts: (0..<(frames / 40)).map { Int32($0 * 40) },
            samples: frames * WarpedNarrationAligner.Plan.samplesPerFrame)
        let stretches = aligner.stretches(disagreements: [], frames: frames)
        var examined =
            stretches.map { plan.examination($0.frames, $0.reason) }
            + aligner.probes(avoiding: stretches, frames: frames).map { plan.examination($0, .probe) }
        let failed = try #require(examined.firstIndex { $0.reason == .probe && $0.samples.lowerBound > 16_000 * 900 })
        for index in examined.indices where examined[index].reason != .disagreement { examined[index].heard = true }
        examined[failed].heard = false
        let rechecks = aligner.rechecks(of: examined, frames: frames, plan: plan)
        let probe = examined[failed].samples
        #expect(rechecks.count == 1 && rechecks[0].reason == .recheck)
        let recheck = try #require(rechecks.first)
        let seconds = (recheck.samples.lowerBound / 16_000)...(recheck.samples.upperBound / 16_000)
        #expect(
            abs(recheck.samples.lowerBound - (probe.lowerBound - 20 * 16_000)) < 16_000
                && abs(recheck.samples.upperBound - (probe.upperBound + 20 * 16_000)) < 16_000,
            "probe \(probe), recheck at \(seconds) s")
        // A recheck that hears its words settles it; one that does not sends the model through the
        // stretch from the probe before to the probe after.
        #expect(aligner.failedProbeStretches(examined + [recheck.heard(true)], plan: plan).isEmpty)
        let whole = aligner.failedProbeStretches(examined + [recheck.heard(false)], plan: plan)
        let before = examined[failed - 1].samples.upperBound
        let after = examined[failed + 1].samples.lowerBound
        #expect(whole.count == 1, "\(whole)")
        #expect(
            whole.first.map {
                abs($0.samples.lowerBound - before) < 16_000 && abs($0.samples.upperBound - after) < 16_000
            }
                == true, "\(whole) between \(before) and \(after)")
        // Unless the model hears the narrator poorly everywhere it looked: then the warp stands.
        let twiceFailed = examined + [recheck.heard(false)]
        #expect(
            aligner.failedProbeStretches(twiceFailed, plan: plan, heardShare: WarpedNarrationAligner.wellHeardShare)
                .count == 1)
        #expect(aligner.failedProbeStretches(twiceFailed, plan: plan, heardShare: 0.44).isEmpty)
        let heard = WordPlacement(startMs: 0, endMs: 300, confidence: nil)
        let verdicts = [
            WarpedNarrationAligner.Verdict(placements: [heard, nil, heard], speech: [], saved: false),
            WarpedNarrationAligner.Verdict(placements: [nil], speech: [], saved: false),
        ]
        #expect(WarpedNarrationAligner.heardShare(of: verdicts) == 0.5)
        #expect(WarpedNarrationAligner.heardShare(of: []) == 1)
    }

    /// A stretch whose unheard words run into one of its ends is widened on that side, more each
    /// round and never past the recording; one that heard nothing, a probe, and one heard to its
    /// ends are not.
    @Test func aStretchIsWidenedOnlyWhereItsUnheardWordsMeetItsEnd() throws {
        let frames = 100 * 600
        let plan = WarpedNarrationAligner.Plan(
            starts: (0..<(frames / 40)).map { Int32($0 * 40) },
            samples: frames * WarpedNarrationAligner.Plan.samplesPerFrame)
        let stretch = plan.examination(20_000..<26_000, .disagreement)
        let heard = WordPlacement(startMs: 0, endMs: 100, confidence: 1, fit: -1)
        let unheard = WordPlacement(startMs: 0, endMs: 100, confidence: 1, fit: -4)
        let count = stretch.words.count
        func widened(
            _ placements: [WordPlacement?], round: Int = 1, _ examination: WarpedNarrationAligner.Examination? = nil
        )
            -> WarpedNarrationAligner.Examination?
        {
            WarpedNarrationAligner.widened(
                examination ?? stretch, placements: placements, round: round, step: 1_500, plan: plan)
        }
        let leadingUnheard = [WordPlacement?](repeating: unheard, count: 5) + Array(repeating: heard, count: count - 5)
        let left = try #require(widened(leadingUnheard))
        #expect(
            plan.frames(of: left).lowerBound <= 20_000 - 1_500 + 40
                && left.samples.upperBound == stretch.samples.upperBound)
        let further = try #require(widened(leadingUnheard, round: 2, left))
        #expect(plan.frames(of: further).lowerBound <= plan.frames(of: left).lowerBound - 3_000 + 40)
        let trailingUnheard = Array(leadingUnheard.reversed())
        let right = try #require(widened(trailingUnheard))
        #expect(
            right.samples.lowerBound == stretch.samples.lowerBound
                && right.samples.upperBound > stretch.samples.upperBound)
        #expect(widened(Array(repeating: heard, count: count)) == nil)
        #expect(widened(Array(repeating: unheard, count: count)) == nil)
        #expect(widened(leadingUnheard, round: WarpedNarrationAligner.widenings + 1) == nil)
        var probe = stretch
        probe.reason = .probe
        #expect(widened(leadingUnheard, probe) == nil)
        // At the recording's start there is nothing more to take on that side.
        let first = plan.examination(0..<3_000, .edge)
        let firstLeading =
            [WordPlacement?](repeating: unheard, count: 5) + Array(repeating: heard, count: first.words.count - 5)
        #expect(widened(firstLeading, first) == nil)
    }

    /// A recording of another text is refused by its probes, without examining it whole.
    @Test func aRecordingOfAnotherTextIsRefusedByItsProbes() throws {
        let (samples, _) = try Self.recording(of: Self.text(from: 0))
        let (outcome, _) = try Self.align(Self.text(from: Self.paragraphs.count / 2), to: samples)
        let (foreign, unmatched) = (outcome.foreign, outcome.narration.unmatchedFraction)
        #expect(foreign && unmatched > 0.9, "\(unmatched)\n\(Self.described(outcome))")
        #expect(Double(outcome.examinedSamples) < 0.5 * Double(samples.count), "\(Self.described(outcome))")
    }

    /// A recording that cannot hold a twentieth of its text (a poem read against a novel) is
    /// refused before anything is read or searched, saying why.
    @Test func aRecordingFarTooShortForItsTextIsRefusedAtOnce() throws {
        let project = try TestProject()
        let speech = try EspeakEngine().synthesize(
            "Tyger Tyger, burning bright, in the forests of the night.", voice: VoiceSettings(id: "en-gb"),
            itemID: "poem")
        try Data(SoundFile.encode(speech.samples, sampleRate: speech.sampleRate, format: .wav)).write(
            to: project.directory.file("poem.wav"))
        try project.directory.write("book.txt", Fixtures.sampleText)
        let started = ContinuousClock.now
        let result = try project.forge(["sync", "book.txt", "poem.wav", "-o", "synced"])
        #expect(started.duration(to: .now) < .seconds(10))
        #expect(result.status == 2, "\(result.status) \(result.errors)")
        #expect(result.errors.contains("poem.wav: the recording is 0:0"), "\(result.errors)")
        #expect(result.errors.contains("too short for the text's"), "\(result.errors)")
    }
}

extension WarpedNarrationAligner.Examination {
    fileprivate func heard(_ heard: Bool) -> Self {
        var examination = self
        examination.heard = heard
        return examination
    }
}
