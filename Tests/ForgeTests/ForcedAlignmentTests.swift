import Foundation
import GRDB
import Synchronization
import Testing

@testable import Forge

@Suite("Forced alignment with pocketsphinx")
struct ForcedAlignmentTests {
    /// Word starts of every item, by item id, from the manifest.
    func starts(_ project: TestProject) throws -> [String: [Int]] {
        let manifest = try project.manifest()
        var result: [String: [Int]] = [:]
        for item in try manifest.items() {
            result[item.id] = try manifest.timings(of: item.id).map { $0?.startMs ?? -1 }
        }
        return result
    }

    @Test func forcedAlignmentOfEspeakAudioAgreesWithItsEvents() throws {
        let project = try TestProject(book: Fixtures.firstChapter)
        #expect(try project.build().status == 0)
        let byEvents = try starts(project)
        try project.write(recipe: Fixtures.recipe(extra: #""alignment": { "method": "forced" }"#))
        let forced = try project.build()
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(
            forced.events("item").allSatisfy { $0["outcome"] as? String == "aligned" },
            "the audio is reused, only timings are made")
        let manifest = try project.manifest()
        #expect(try manifest.items().allSatisfy { $0.alignmentSource == .forced })
        try project.checkConsistency()

        var errors: [Int] = []
        for (id, starts) in try starts(project) {
            let reference = try #require(byEvents[id])
            errors += zip(starts, reference).map { abs($0 - $1) }
        }
        errors.sort()
        let median = errors[errors.count / 2]
        let within50 = Double(errors.filter { $0 <= 50 }.count) / Double(errors.count)
        #expect(errors.count > 800)
        #expect(median <= 15, "median word-start error \(median) ms")
        #expect(within50 >= 0.95, "\(within50 * 100)% of word starts within 50 ms")

        // Cached: building again aligns nothing; the timings stay.
        let again = try project.build()
        #expect(again.events("item").isEmpty)
        #expect(try starts(project) == (try starts(project)))
        // Back to events: timings from the synthesizer again, nothing synthesized.
        try project.write(recipe: Fixtures.recipe())
        let back = try project.build()
        #expect(back.events("summary").first?["synthesized"] as? Int == 0)
        #expect(try starts(project) == byEvents)
        #expect(try project.manifest().items().allSatisfy { $0.alignmentSource == .synthesizer })
    }

    @Test func espeakPhonemesMapToTheRecognizersPhones() {
        #expect(ArpabetMapper.phones(fromEspeak: "h_@_l_'oU") == ["HH", "AH", "L", "OW"])
        #expect(
            ArpabetMapper.phones(fromEspeak: "b_'E_n_I2_t l_'u:_k_@_z_l_'0_dZ") == [
                "B", "EH", "N", "IH", "T", "L", "UW", "K", "AH", "Z", "L", "AA", "JH",
            ])
        #expect(ArpabetMapper.phones(fromEspeak: "tS_'3:_tS") == ["CH", "ER", "CH"])
    }

    @Test func wordsMissingFromTheDictionaryAreAlignedWithGeneratedPronunciations() throws {
        let engine = try EspeakEngine()
        let text = "Mister Zorblaxian visited Quenthorpe yesterday."
        let speech = try engine.synthesize(text, voice: VoiceSettings(), itemID: "t")
        let words = Tokenizer.words(in: text)
        let aligner = try ForcedAligner()
        let alignment = try aligner.align(
            words: words, audio: DecodedAudio(samples: speech.samples, sampleRate: speech.sampleRate))
        let reference = EventAligner.align(words: words, events: speech.events, durationMs: speech.durationMs)
        #expect(alignment.unplaced.isEmpty, "every word, invented ones included, has a pronunciation")
        for (forced, event) in zip(alignment.timings, reference) {
            #expect(abs(forced.startMs - event.startMs) <= 60, "\(forced) vs \(event)")
        }
    }

    /// An item's alignment, an object keyed by its audio, text and aligner, depends on nothing
    /// else: not on the items aligned before it. (A pocketsphinx decoder's results depend on what
    /// it decoded before; with one decoder per thread, an item's timings moved by a frame with
    /// the scheduling.) The chapter's paragraphs are built once in order and once reversed, on
    /// one thread, so each item follows other items the second time.
    @Test func anItemsAlignmentDoesNotDependOnTheItemsAlignedBeforeIt() throws {
        let recipe = Fixtures.recipe(jobs: 1, extra: #""alignment": { "method": "forced" }"#)
        let paragraphs = Fixtures.firstChapter.components(separatedBy: "\n\n")
        var startsByText: [[String: [Int]]] = []
        for book in [paragraphs, paragraphs.reversed()] {
            let project = try TestProject(book: book.joined(separator: "\n\n"))
            try project.write(recipe: recipe)
            let build = try project.build()
            #expect(build.status == 0, "\(build.errors)")
            let manifest = try project.manifest()
            var starts: [String: [Int]] = [:]
            for item in try manifest.items() {
                starts[item.text] = try manifest.timings(of: item.id).map { $0?.startMs ?? -1 }
            }
            startsByText.append(starts)
        }
        let texts = Set(startsByText[0].keys).intersection(startsByText[1].keys)
        #expect(texts.count > 20)
        let moved = texts.filter { startsByText[0][$0] != startsByText[1][$0] }
        #expect(moved.isEmpty, "\(moved.count) of \(texts.count) items aligned differently: \(moved.prefix(2))")
    }

    /// A stored alignment reads back as it was written (a narration's of a whole book's words),
    /// and a damaged one is refused rather than misread.
    @Test func aStoredAlignmentReadsBackAsWrittenAndADamagedOneIsRefused() throws {
        let count = 20_000
        let timings = (0..<count).map { WordTiming(startMs: $0 * 300, endMs: $0 * 300 + 250) }
        let confidences = (0..<count).map { $0 % 7 == 0 ? nil : Double($0 % 1000) / 1000 }
        let alignment = ForcedAlignment(timings: timings, confidences: confidences)
        let narration = NarrationAlignment(
            alignment: alignment, heard: (0..<count).map { $0 % 13 != 0 },
            spans: [
                NarrationSpan(kind: .matched, startMs: 0, endMs: 50_000, words: 0..<150),
                NarrationSpan(kind: .textNotInAudio, startMs: 50_000, endMs: 51_000, words: 150..<160),
            ], speechMs: 40_000, unmatchedSpeechMs: 1_200)
        let document = AlignmentDocument(
            aligner: "narration/test", durationMs: count * 300, narration: narration,
            recording: .init(frames: 123_456, missingFrames: 7))
        let bytes = document.encoded()
        let readBack = AlignmentDocument.decode(Data(bytes))
        #expect(readBack?.narration?.heard == narration.heard && readBack?.alignment == alignment)
        #expect(readBack == document, "the spans, counts or the recording's length read back otherwise")
        let item = AlignmentDocument(
            aligner: "forced-2", durationMs: 900,
            alignment: ForcedAlignment(timings: Array(timings.prefix(3)), confidences: [0.5, nil, 1]))
        #expect(AlignmentDocument.decode(Data(item.encoded())) == item)

        let text = String(decoding: item.encoded(), as: UTF8.self)
        for damaged in [
            text.replacingOccurrences(of: "\"version\":1", with: "\"version\":2"),
            text.replacingOccurrences(of: "[0,250,0.500]", with: "[0,250]"),
            text.replacingOccurrences(of: "[0,250,0.500]", with: "[250,0,0.500]"),
            text.replacingOccurrences(of: "[0,250,0.500]", with: "[0,250,0.500,1]"),
            String(text.prefix(text.count / 2)),
        ] {
            #expect(AlignmentDocument.decode(Data(damaged.utf8)) == nil, "\(damaged)")
        }
        let whole = String(decoding: bytes, as: UTF8.self)
        let shortHeard = whole.replacingOccurrences(of: "\"heard\":\"0", with: "\"heard\":\"")
        #expect(shortHeard != whole)
        let misread = AlignmentDocument.decode(Data(shortHeard.utf8)) != nil
        #expect(!misread, "a narration with a heard flag missing was read")
    }

    @Test func wordsTheRecognizerCannotPlaceAreInterpolatedInsideTheAudio() {
        let words = Tokenizer.words(in: "one two three four five")
        let placements: [WordPlacement?] = [
            WordPlacement(startMs: 100, endMs: 300, confidence: 1), nil, nil,
            WordPlacement(startMs: 900, endMs: 1100, confidence: 0.5), nil,
        ]
        let alignment = ForcedAlignment.complete(words: words, placements: placements, durationMs: 1200)
        #expect(alignment.unplaced == [1, 2, 4])
        var previous = -1
        for timing in alignment.timings {
            #expect(timing.startMs > previous && timing.endMs > timing.startMs && timing.endMs <= 1200)
            previous = timing.startMs
        }
        let none = ForcedAlignment.complete(words: words, placements: Array(repeating: nil, count: 5), durationMs: 3)
        #expect(none.timings.count == 5 && none.timings.allSatisfy { $0.endMs > $0.startMs && $0.endMs <= 10 })
    }

    /// A narration aligned in short windows (so several anchors are used) agrees with the
    /// synthesizer's own times from start to end, and a sentence the narrator never read is reported.
    /// The first chapter's first `paragraphs` paragraphs read by espeak-ng (en-gb, 160 wpm) with
    /// half a second after each: the audio, its words, and each word's start by the synthesizer.
    func narration(paragraphs count: Int) throws -> (audio: DecodedAudio, words: [WordToken], reference: [Int]) {
        let engine = try EspeakEngine()
        let paragraphs = Fixtures.firstChapter.components(separatedBy: "\n\n").map {
            $0.replacingOccurrences(of: "\n", with: " ")
        }
        .filter { !$0.isEmpty }.prefix(count)
        let voice = VoiceSettings(id: "en-gb", rate: 160)
        var samples: [Int16] = []
        var words: [WordToken] = []
        var reference: [Int] = []
        var offset = 0
        for paragraph in paragraphs {
            let speech = try engine.synthesize(paragraph, voice: voice, itemID: "n")
            let tokens = Tokenizer.words(in: paragraph)
            let startMs = samples.count * 1000 / speech.sampleRate
            reference += EventAligner.align(words: tokens, events: speech.events, durationMs: speech.durationMs).map {
                $0.startMs + startMs
            }
            words += tokens.map {
                WordToken(index: words.count + $0.index, text: $0.text, start: $0.start + offset, end: $0.end + offset)
            }
            offset += paragraph.unicodeScalars.count + 1
            samples += speech.samples + [Int16](repeating: 0, count: speech.sampleRate / 2)
        }
        return (DecodedAudio(samples: samples, sampleRate: 22050), words, reference)
    }

    /// Where a narration is cut into segments, and so its whole alignment, does not depend on how
    /// many threads look for the cuts or which took which: each cut is looked for by decoders that
    /// searched nothing before (one reused across cuts found other places after other searches).
    @Test func aNarrationsSegmentsDoNotDependOnItsThreads() throws {
        let (audio, words, _) = try narration(paragraphs: 7)
        let samples = RecognizerAudio(samples: RecognizerInput.samples(audio.samples[...], from: audio.sampleRate))
        let texts = words.map(\.text)
        func segments(jobs: Int) throws -> [NarrationSegment] {
            let aligner = try NarrationAligner()
            aligner.windowSeconds = 20
            aligner.marginSeconds = 5
            aligner.shortestSplitSeconds = 10
            aligner.segmentSeconds = 5
            aligner.jobs = jobs
            let settings = WindowAligner.Settings(
                windowSeconds: 20, marginSeconds: 5, anchorConfidence: aligner.anchorConfidence, wordsPerWindow: 100)
            return try aligner.segments(texts: texts, samples: samples, settings: settings)
        }
        let one = try segments(jobs: 1)
        #expect(one.count >= 4, "\(one)")
        let two = try segments(jobs: 2)
        #expect(two == one, "two threads: \(two) against one: \(one)")
    }

    /// A narration's cuts are looked for a round at a time, each between the places found for
    /// the cuts around it: every cut once, after both its neighbours' rounds, and in the stretch
    /// of words their places and its share of the audio between them give, not the whole book's.
    @Test func aCutIsLookedForBetweenThePlacesFoundAroundIt() {
        for count in [1, 2, 3, 10, 76, 200] {
            let rounds = NarrationAligner.locatingRounds(cuts: count)
            #expect(rounds.flatMap { $0 }.sorted() == Array(1..<count), "\(count) cuts: \(rounds)")
            var looked: Set<Int> = [0, count]
            for (number, round) in rounds.enumerated() {
                for cut in round {
                    // The nearest cuts looked for before it: each round halves the stretches.
                    let before = looked.filter { $0 < cut }.max()!
                    let after = looked.filter { $0 > cut }.min()!
                    #expect(after - before <= (count + (1 << number) - 1) >> number, "cut \(cut) of \(count)")
                    #expect(cut - before >= (after - before) / 2 && after - cut >= (after - before) / 2)
                }
                looked.formUnion(round)
            }
            #expect(rounds.count <= Int(log2(Double(max(1, count)))) + 1, "\(count) cuts: \(rounds.count) rounds")
        }
        // 76 cuts through 12.6 hours and 121,870 words, read at an even pace after a 40 s intro:
        // cut 38 between the start (word 0 at 40 s) and the end.
        let samples = 45_450 * 16_000
        var found = [(word: Int, sample: Int)?](repeating: nil, count: 76)
        found[0] = (0, 40 * 16_000)
        let wide = NarrationAligner.locateGuess(cut: 38, of: 76, found: found, words: 121_870, samples: samples)
        #expect(abs(wide.guess - 60_935) < 200, "\(wide)")
        #expect(wide.slack == NarrationAligner.widestLocateSlack && wide.bounds == 1..<121_870)
        // Cut 37 once 36 and 38 are found, 38 found later than its share (a slower chapter):
        // looked for between them, at its share of the audio between them: first in the piece
        // around the guess, then in those after and before it, out to the slack each way.
        found[36] = (57_500, samples / 76 * 36 + 16_000 * 30)
        found[38] = (61_000, samples / 76 * 38 + 16_000 * 60)
        found[37] = nil
        let narrow = NarrationAligner.locateGuess(cut: 37, of: 76, found: found, words: 121_870, samples: samples)
        #expect(narrow.bounds == 57_501..<61_000, "\(narrow)")
        #expect(narrow.guess > 57_500 + 1_500 && narrow.guess < 57_500 + 1_800, "\(narrow)")
        let pieces = NarrationAligner.locatePieces(around: narrow.guess, slack: narrow.slack, within: narrow.bounds)
        #expect(pieces.count == 3 && pieces[0].contains(narrow.guess), "\(pieces)")
        #expect(pieces[0].count == NarrationAligner.locatePiece && pieces[0].count >= 2 * 500)
        #expect(
            pieces.map(\.count).reduce(0, +) == 2 * narrow.slack && pieces[0].upperBound == pieces[1].lowerBound
                && pieces[2].upperBound == pieces[0].lowerBound,
            "\(pieces)")
        // Not found between its neighbours' words, a cut is never looked for outside them.
        let all = NarrationAligner.locatePieces(around: 100, slack: 5_000, within: 50..<9_000)
        #expect(all.first?.contains(100) == true)
        #expect(
            all.allSatisfy { $0.lowerBound >= 50 && $0.upperBound <= 5_100 && $0.count <= NarrationAligner.locatePiece }
        )
        #expect(all.map(\.count).reduce(0, +) == 5_050, "\(all)")
        #expect(NarrationAligner.locatePieces(around: 10, slack: 100, within: 40..<40).isEmpty)
    }

    /// A cut the locating search found is kept only where the text is heard from it on: the
    /// true place of a word is confirmed, the same audio given words read a minute later is not.
    @Test func aCutIsConfirmedOnlyWhereItsTextIsHeard() throws {
        let (audio, words, reference) = try narration(paragraphs: 14)
        let samples = RecognizerAudio(samples: RecognizerInput.samples(audio.samples[...], from: audio.sampleRate))
        let texts = words.map(\.text)
        let aligner = WindowAligner(
            aligner: try ForcedAligner(fillers: false),
            settings: WindowAligner.Settings(
                windowSeconds: 60, marginSeconds: 12, anchorConfidence: 0.5, wordsPerWindow: 4 * 60 * 3 / 2 + 20))
        let word = 40
        let sample = reference[word] * PocketSphinxDecoder.sampleRate / 1000
        #expect(try aligner.isConfirmed((word, sample), texts: texts[...], samples: samples))
        #expect(try !aligner.isConfirmed((word + 150, sample), texts: texts[...], samples: samples))
        #expect(try !aligner.isConfirmed((word + 60, sample), texts: texts[...], samples: samples))
    }

    @Test func aNarrationIsAlignedInAnchoredWindowsWithoutDrift() throws {
        let (audio, words, reference) = try narration(paragraphs: 14)
        #expect(audio.durationMs > 60_000)
        let aligner = try NarrationAligner()
        aligner.windowSeconds = 20
        aligner.marginSeconds = 5
        let recognizerAudio = RecognizerAudio(
            samples: RecognizerInput.samples(audio.samples[...], from: audio.sampleRate))
        // Two segments side by side, as a recording of hours is aligned.
        aligner.shortestSplitSeconds = 30
        aligner.segmentSeconds = 30
        let saved = Mutex<[NarrationCheckpoint]>([])
        var found: [NarrationSegment] = []
        let alignment = try aligner.align(
            words: words, samples: recognizerAudio, durationMs: audio.durationMs,
            segmentsFound: { found = $0 },
            checkpoint: { checkpoint in saved.withLock { $0.append(checkpoint) } })
        #expect(found.count >= 2, "\(found)")
        let checkpoints = saved.withLock { $0 }
        // Resumed from its first windows' checkpoints (a run stopped there), by a fresh aligner as in
        // the process that resumes, the result is the same: the same words heard, each within a
        // frame or two (the recognizer's running cepstral mean is not saved, only the windows).
        #expect(checkpoints.count >= 4)
        let resumer = try NarrationAligner()
        resumer.windowSeconds = 20
        resumer.marginSeconds = 5
        resumer.shortestSplitSeconds = 30
        resumer.segmentSeconds = 30
        // The segments found are saved, and taken as they are: not looked for again.
        var foundAgain = false
        let resumed = try resumer.align(
            words: words, samples: recognizerAudio, durationMs: audio.durationMs,
            resumingFrom: Array(checkpoints.prefix(checkpoints.count / 2)), segments: found,
            segmentsFound: { _ in foundAgain = true })
        #expect(!foundAgain, "the saved segments were looked for again")
        // espeak-ng's audio varies with what the process synthesized before (other suites run in
        // this process), and where the recognizer is unsure a fresh decoder may settle a word or two
        // differently: 2% of the words may differ; a resume that ignored its checkpoints moves far more.
        let tolerance = max(2, words.count / 50)
        let heardDiffer = zip(resumed.heard, alignment.heard).filter { $0 != $1 }.count
        #expect(
            resumed.heard.count == alignment.heard.count && heardDiffer <= tolerance,
            "\(heardDiffer) words heard differently")
        let moved = zip(resumed.alignment.timings, alignment.alignment.timings).filter {
            abs($0.startMs - $1.startMs) > 30 || abs($0.endMs - $1.endMs) > 30
        }
        #expect(moved.count <= tolerance, "\(moved.count) of \(words.count) words moved: \(moved)")
        // The saved windows' words are taken as saved.
        #expect(Array(resumed.alignment.timings.prefix(100)) == Array(alignment.alignment.timings.prefix(100)))
        let errors = zip(alignment.alignment.timings, reference).map { abs($0.startMs - $1) }
        let half = errors.count / 2
        for (name, part) in [("first half", Array(errors[..<half])), ("second half", Array(errors[half...]))] {
            let sorted = part.sorted()
            #expect(sorted[sorted.count / 2] <= 40, "\(name): median error \(sorted[sorted.count / 2]) ms")
            #expect(Double(part.filter { $0 <= 200 }.count) / Double(part.count) >= 0.95, "\(name)")
        }
    }

    /// Ctrl-C during `forge align narration --audio` keeps the windows already aligned and says so; the same
    /// command again resumes there, leaves nothing behind and agrees with the recording.
    @Test func anInterruptedNarrationResumesAtItsLastWindow() throws {
        let project = try TestProject()
        let engine = try EspeakEngine()
        let paragraphs = Fixtures.firstChapter.components(separatedBy: "\n\n").map {
            $0.replacingOccurrences(of: "\n", with: " ")
        }
        .filter { !$0.isEmpty }
        var samples: [Int16] = []
        var spoken: [String] = []
        // Two windows: the first a minute, the second the rest.
        for paragraph in paragraphs where samples.count < 22050 * 80 {
            samples += try engine.synthesize(paragraph, voice: VoiceSettings(id: "en-us+klatt"), itemID: "n").samples
            samples += [Int16](repeating: 0, count: 11025)
            spoken.append(paragraph)
        }
        try Data(SoundFile.encode(samples, sampleRate: 22050, format: .flac)).write(
            to: project.directory.file("narration.flac"))
        try project.directory.write("narration.txt", spoken.joined(separator: "\n\n") + "\n")
        let arguments = [
            "align", "narration", "--audio", "narration.flac", "--text", "narration.txt", "--output", "aligned",
            "--json", "--aligner", "windows",
        ]

        let forge = try project.start(arguments)
        // After the first window (the first 2% is finding where the text starts).
        #expect(
            forge.waitForLines(count: 1) {
                $0.contains("\"event\":\"aligning\"") && !$0.contains("\"fraction\":0.0")
                    && !$0.contains("\"fraction\":0}")
            })
        forge.signal(SIGINT)
        let stopped = forge.wait()
        #expect(stopped.status == 130, "\(stopped.errors)")
        #expect(
            stopped.errors.contains("of the recording is kept; run the same command again to resume there"),
            "\(stopped.errors)")
        #expect(
            stopped.events("narration").isEmpty, "the alignment finished before the signal; the test proves nothing")
        let saved = try Manifest(directory: project.directory.file("aligned"), create: false)
            .read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM narration_windows") }
        #expect((saved ?? 0) >= 1, "the windows aligned before the signal are saved")
        let tmp = project.directory.file("aligned/objects/tmp").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).isEmpty)
        // The recognizer's 16 kHz copy is kept for the resume: 80 s at 16 kHz, two bytes a sample.
        let copy = project.directory.file("aligned/recording/recognizer.s16").path
        let copyBytes = (try? FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int) ?? 0
        #expect(copyBytes > 16_000 * 2 * 60, "\(copyBytes)")
        #expect(
            FileManager.default.fileExists(atPath: project.directory.file("aligned/recording/recognizer.stamp").path))
        #expect(!stopped.events("reading").isEmpty)

        let rerun = try project.forge(arguments)
        #expect(rerun.status == 0, "\(rerun.text) \(rerun.errors)")
        let report = try #require(rerun.events("narration").first)
        #expect((report["resumedFromMs"] as? Int ?? 0) > 30_000, "\(report)")
        #expect(rerun.events("reading").isEmpty, "the recording was read again: its kept copy was not taken")
        let recording = project.directory.file("aligned/recording").path
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: recording)) ?? []).isEmpty,
            "the copy is deleted once the alignment is stored")
        let manifest = try Manifest(directory: project.directory.file("aligned"), create: false)
        #expect(
            try manifest.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM narration_windows") } == 0,
            "the saved windows are gone once the alignment is stored")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).isEmpty)
    }

    /// A segment's phone loop is decoded once, in chunks counted from the segment's start, and a
    /// window takes its frames from them: the frames of any range are the chunks' own, across a
    /// chunk's edge too, as many as a reference of the range's samples has, and nothing heard
    /// past the segment's end.
    @Test func aWindowTakesItsPhoneLoopFromTheSegmentsChunks() throws {
        let engine = try EspeakEngine()
        let rate = PocketSphinxDecoder.sampleRate
        let perFrame = rate / PocketSphinxDecoder.framesPerSecond
        var samples: [Int16] = [Int16](repeating: 0, count: 123)
        for paragraph in Fixtures.firstChapter.components(separatedBy: "\n\n") where samples.count < 80 * rate {
            let audio = try engine.synthesize(paragraph, voice: VoiceSettings(id: "en-us"), itemID: "p")
            samples += RecognizerInput.samples(audio.samples[...], from: audio.sampleRate)
        }
        // The segment starts off the 10 ms grid of the recording and ends before its end.
        let segment = 123..<(samples.count - rate)
        let chunk = SegmentPhoneLoop.chunkFrames * perFrame
        #expect(segment.count > chunk + 10 * rate, "more than one chunk")
        let aligner = try ForcedAligner(model: .standard, language: "en-us", fillers: false)
        let loop = SegmentPhoneLoop(aligner: aligner, samples: RecognizerAudio(samples: samples), range: segment)
        // A decoder's phone loop depends on what it decoded before (its noise and mean
        // estimates go on): the chunks are decoded in order by a decoder of their own, as a
        // segment's windows ask for them.
        let expected = try ForcedAligner(model: .standard, language: "en-us", fillers: false)
        let first = try expected.phoneLoop(samples[segment.lowerBound..<(segment.lowerBound + chunk)])
        let second = try expected.phoneLoop(samples[(segment.lowerBound + chunk)..<segment.upperBound])
        let frames = Array(first.frameScores.prefix(SegmentPhoneLoop.chunkFrames)) + second.frameScores
        let speech = Array(first.speech.prefix(SegmentPhoneLoop.chunkFrames)) + second.speech
        for start in [0, 3_000, SegmentPhoneLoop.chunkFrames - 1, SegmentPhoneLoop.chunkFrames + 7] {
            let lower = segment.lowerBound + start * perFrame
            let range = lower..<min(segment.upperBound, lower + 60 * rate)
            let reference = try loop.reference(range)
            #expect(reference.frameScores.count == range.count / perFrame + 1, "frames of \(range)")
            let known = min(reference.frameScores.count, frames.count - start)
            #expect(
                Array(reference.frameScores.prefix(known)) == Array(frames[start..<(start + known)]),
                "scores from frame \(start)")
            #expect(
                Array(reference.speech.prefix(known)) == Array(speech[start..<(start + known)]),
                "speech from frame \(start)")
            #expect(reference.speech.dropFirst(known).allSatisfy { !$0 }, "nothing heard past the segment")
        }
    }

    /// An aligner given a gate (``SearchGate``) runs its searches that may skip words alone:
    /// while another thread's ordinary search holds the gate, a skip search waits for it to end,
    /// and a plain placement goes ahead beside it.
    @Test func anAlignersSkipSearchWaitsForTheSearchesBesideIt() throws {
        let text = "It is a truth universally acknowledged."
        let audio = try EspeakEngine().synthesize(text, voice: VoiceSettings(id: "en-us+klatt"), itemID: "p")
        let samples = RecognizerInput.samples(audio.samples[...], from: audio.sampleRate)
        let texts = Tokenizer.words(in: text).map(\.text)
        let aligner = try ForcedAligner(model: .standard, language: "en-us", fillers: false)
        let gate = SearchGate()
        aligner.searchGate = gate
        let reference = try aligner.phoneLoop(samples[...])
        /// Holds the gate as an ordinary search for `seconds` on another thread; returns once it
        /// holds it, with a semaphore signalled as it lets go (before the gate opens: a search
        /// that waited for it cannot end before the signal).
        func holdBeside(seconds: Double) -> DispatchSemaphore {
            let holding = DispatchSemaphore(value: 0)
            let released = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                gate.beside {
                    holding.signal()
                    usleep(UInt32(seconds * 1_000_000))
                    released.signal()
                }
            }
            holding.wait()
            return released
        }
        let heldForSkips = holdBeside(seconds: 0.5)
        let skipping = try aligner.place(
            texts, in: samples[...], openEnded: true, allowSkips: true, reference: reference)
        #expect(heldForSkips.wait(timeout: .now()) == .success, "the skip search ran beside an ordinary one")
        #expect(skipping.filter(NarrationAligner.isHeard).count >= texts.count / 2, "\(skipping)")
        let heldForPlain = holdBeside(seconds: 5)
        let plain = try aligner.place(texts, in: samples[...], openEnded: true, reference: reference)
        #expect(heldForPlain.wait(timeout: .now()) == .timedOut, "the plain placement waited for an ordinary search")
        #expect(plain.filter(NarrationAligner.isHeard).count >= texts.count / 2, "\(plain)")
        gate.alone {}
    }

    /// A window's search that may pass over words runs on at most ``WindowAligner/skipSearchSeconds``
    /// of audio at a time (its memory grows with its audio): a minute read with a paragraph left
    /// out is searched in pieces, and the words read after the paragraph, in a later piece than
    /// the first, are heard where they were read; the paragraph's are not.
    @Test func aSkipSearchGoesOnPieceByPieceAndFindsTheTextAfterTheSkip() throws {
        let engine = try EspeakEngine()
        let paragraphs = Fixtures.firstChapter.components(separatedBy: "\n\n").map {
            $0.replacingOccurrences(of: "\n", with: " ")
        }
        .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let rate = PocketSphinxDecoder.sampleRate
        var samples: [Int16] = []
        var texts: [String] = []
        var skipped: Range<Int>?
        var readAfterSkip: (words: Range<Int>, sample: Int)?
        for paragraph in paragraphs where samples.count < 58 * rate {
            let words = Tokenizer.words(in: paragraph).map(\.text)
            let range = texts.count..<(texts.count + words.count)
            texts += words
            if skipped == nil && samples.count > 30 * rate {
                skipped = range
                continue
            }
            if skipped != nil && readAfterSkip == nil { readAfterSkip = (range, samples.count) }
            let audio = try engine.synthesize(paragraph, voice: VoiceSettings(id: "en-us+klatt"), itemID: "p")
            samples += RecognizerInput.samples(audio.samples[...], from: audio.sampleRate)
            samples += [Int16](repeating: 0, count: rate / 2)
        }
        let skip = try #require(skipped)
        let after = try #require(readAfterSkip)
        #expect(samples.count > 2 * WindowAligner.skipSearchSeconds * rate, "more than two pieces of audio")
        let aligner = try ForcedAligner(model: .standard, language: "en-us", fillers: false)
        let window = WindowAligner(
            aligner: aligner,
            settings: .init(windowSeconds: 60, marginSeconds: 12, anchorConfidence: 0.5, wordsPerWindow: texts.count))
        let (found, pieces) = try window.placeAllowingSkips(
            texts, in: samples[...], reference: try aligner.phoneLoop(samples[...]))
        #expect(pieces.count >= 3, "\(pieces)")
        #expect(pieces.allSatisfy { $0.count <= WindowAligner.skipSearchSeconds * rate }, "\(pieces)")
        #expect(pieces.first?.lowerBound == 0 && pieces.last?.upperBound == samples.count, "\(pieces)")
        let heardSkipped = skip.filter { NarrationAligner.isHeard(found[$0]) }.count
        #expect(heardSkipped <= skip.count / 10, "\(heardSkipped) of the \(skip.count) skipped words heard")
        let afterMs = after.sample * 1000 / rate
        let heardAfter = after.words.filter { NarrationAligner.isHeard(found[$0]) }
        #expect(heardAfter.count >= after.words.count * 8 / 10, "\(heardAfter.count) of \(after.words.count) heard")
        let first = try #require(heardAfter.first.flatMap { found[$0] })
        #expect(
            abs(first.startMs - afterMs) < 300 && heardAfter.first == after.words.lowerBound,
            "the paragraph after the skip starts at \(afterMs) ms; its first word heard at \(first.startMs) ms")
        let starts = found.compactMap { $0?.startMs }
        #expect(starts == starts.sorted() && (starts.last ?? 0) < samples.count * 1000 / rate, "placements in order")
    }

    /// A narrator who skips a long paragraph a few seconds into a window (as readers of a letter
    /// in a novel do): one span of its words, give or take the few words at its edges, not spans
    /// spilling over the words read after it. The window's search would stretch the paragraph's
    /// words over what was read instead, one word per pause; it is settled only up to the first
    /// second of speech its words leave out, and the next window, whose first words are not
    /// what it starts with, finds where the text goes on with a locating search among the words
    /// ahead (the short lines of dialogue right after the skip included).
    @Test func aParagraphSkippedAtAWindowsStartIsOneSpanOfItsWords() throws {
        let project = try TestProject()
        let paragraphs = Fixtures.sampleText.components(separatedBy: "\n\n").map {
            $0.replacingOccurrences(of: "\n", with: " ")
        }
        .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.prefix(22)
        let skipped = try #require(paragraphs.firstIndex { $0.hasPrefix("\"Why, my dear, you must know") })
        try project.directory.write("book.txt", paragraphs.joined(separator: "\n\n") + "\n")
        try project.directory.write(
            "read.txt",
            paragraphs.enumerated().filter { $0.offset != skipped }.map(\.element).joined(separator: "\n\n") + "\n")
        try SyncTests.espeak(
            voice: "en-gb", wordsPerMinute: 165, text: "read.txt", to: "read.wav", in: project.directory.url)
        let result = try project.forge([
            "align", "narration", "--audio", "read.wav", "--text", "book.txt", "--output", "aligned", "--json",
        ])
        let report = try #require(result.events("narration").first, "\(result.text) \(result.errors)")
        let spans = (report["spans"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String != "matched" }
        let items = try Manifest(directory: project.directory.file("aligned"), create: false).items()
        let index = try #require(items.firstIndex { $0.text.hasPrefix("\"Why, my dear") })
        let (before, paragraph, after) = (items[index - 1], items[index], items[index + 1])
        let words = Tokenizer.words(in: paragraph.text).count
        let order = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($0.element.id, $0.offset) })
        let touching = spans.filter { span in
            (order[span["firstItem"] as? String ?? ""] ?? .max) <= index
                && (order[span["lastItem"] as? String ?? ""] ?? -1) >= index
        }
        #expect(touching.count == 1, "\(touching)")
        let span = touching.first ?? [:]
        #expect(span["kind"] as? String == "text-not-in-audio", "\(span)")
        // It starts at most three words before the paragraph and ends at most three after it.
        let firstItem = span["firstItem"] as? String
        let firstWord = span["firstWord"] as? Int ?? 99
        let lastItem = span["lastItem"] as? String
        let lastWord = span["lastWord"] as? Int ?? 0
        #expect(
            firstItem == paragraph.id && firstWord == 0
                || firstItem == before.id && firstWord >= Tokenizer.words(in: before.text).count - 3, "\(span)")
        #expect(
            lastItem == paragraph.id && lastWord == words - 1 || lastItem == after.id && lastWord <= 2,
            "\(words) words: \(span)")
        withKnownIssue("a few words elsewhere in this espeak-ng reading are reported unheard (issue 55)") {
            #expect(spans.count == 1, "\(spans)")
        }
    }

    /// `forge align narration --audio --text`: a manifest like a build's; a paragraph the narrator never
    /// read is text not in the recording (its words named, its item left without audio, exit 1,
    /// nothing exported), and the same result comes from the store on a rerun.
    @Test func alignCommandCatchesAParagraphTheNarratorSkipped() throws {
        let project = try TestProject()
        let engine = try EspeakEngine()
        let spoken = [
            "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.",
            "However little known the feelings or views of such a man may be on his first entering a neighbourhood, this truth is so well fixed.",
        ]
        var samples: [Int16] = []
        for paragraph in spoken {
            samples += try engine.synthesize(paragraph, voice: VoiceSettings(id: "en-us+klatt", rate: 190), itemID: "n")
                .samples
            samples += [Int16](repeating: 0, count: 11025)
        }
        try Data(SoundFile.encode(samples, sampleRate: 22050, format: .flac)).write(
            to: project.directory.file("narration.flac"))
        let skipped = "The grey elephant trumpeted loudly across the frozen meadow."
        try project.directory.write("narration.txt", spoken[0] + "\n\n" + skipped + "\n\n" + spoken[1] + "\n")

        let result = try project.forge([
            "align", "narration", "--audio", "narration.flac", "--text", "narration.txt", "--output", "aligned",
            "--export", "json,vtt", "--json",
        ])
        #expect(result.status == 1, "\(result.text) \(result.errors)")
        let report = try #require(result.events("narration").first)
        #expect(report["passed"] as? Bool == false && report["itemsNotInRecording"] as? Int == 1)
        let spans = report["spans"] as? [[String: Any]] ?? []
        let missing = spans.filter { $0["kind"] as? String == "text-not-in-audio" }
        // espeak-ng's audio varies a little with what the process synthesized before (tests run in
        // parallel), and a word of it may go unheard now and then; the skipped sentence always is.
        #expect(
            missing.filter { ($0["text"] as? String)?.contains("elephant trumpeted") == true }.count == 1, "\(spans)")
        #expect(missing.count <= 2, "\(spans)")
        #expect(spans.filter { $0["kind"] as? String == "matched" }.count >= 1)
        #expect(
            !spans.contains { $0["kind"] as? String == "audio-without-text" },
            "every stretch of speech is in the text: \(spans)")
        let manifest = try Manifest(directory: project.directory.file("aligned"), create: false)
        let items = try manifest.items()
        #expect(items.count == 3)
        #expect(items.filter { $0.status == .done && $0.alignmentSource == .forced }.count == 2)
        #expect(items[1].status == .failed && items[1].error?.contains("not in the recording") == true, "\(items[1])")
        #expect(
            try manifest.narrationSpans().map(\.kind)
                == spans.compactMap { ($0["kind"] as? String).flatMap(NarrationSpan.Kind.init(rawValue:)) })
        #expect(
            !FileManager.default.fileExists(atPath: project.directory.file("aligned/exports").path),
            "a run that fails exports nothing")

        // Again: the stored alignment is reused, with the same verdict.
        let again = try project.forge([
            "align", "narration", "--audio", "narration.flac", "--text", "narration.txt", "--output", "aligned",
            "--json",
        ])
        #expect(again.status == 1 && again.events("narration").first?["reusedAlignment"] as? Bool == true)
        #expect(again.events("narration").first?["spans"] as? [[String: Any]] != nil)

        // A recording cut short is aligned as far as it goes, with a warning naming the file and
        // the time decoding stopped; one that cannot be read, or holds no audio, is bad input (exit 2).
        let whole = try Data(contentsOf: project.directory.file("narration.flac"))
        try whole.prefix(whole.count * 2 / 3).write(to: project.directory.file("cut.flac"))
        let cut = try project.forge([
            "align", "narration", "--audio", "cut.flac", "--text", "narration.txt", "--output", "cut", "--json",
        ])
        let warnings = cut.events("narration").first?["warnings"] as? [String] ?? []
        #expect(cut.status == 1, "the rest of the text is not in the cut recording")
        #expect(
            warnings.count == 1 && warnings[0].contains("cut.flac: decoding stopped at 0:"),
            "\(cut.status) \(cut.text) \(cut.errors)")
        try Data().write(to: project.directory.file("empty.wav"))
        try project.directory.write("notes.wav", "not audio at all")
        // A book saved under an audio name is said to be text, whatever its extension.
        try project.directory.write("chapter.mp3", "Chapter 1\n\nIt is a truth universally acknowledged.\n")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 | 1) }).write(
            to: project.directory.file("noise.ogg"))
        for name in ["empty.wav", "notes.wav", "chapter.mp3", "noise.ogg", "missing.flac"] {
            let bad = try project.forge([
                "align", "narration", "--audio", name, "--text", "narration.txt", "--output", "bad",
            ])
            #expect(
                bad.status == 2 && bad.errors.contains("\(name): the recording cannot be read"),
                "\(name): \(bad.status) \(bad.errors)")
            if name == "notes.wav" || name == "chapter.mp3" {
                #expect(bad.errors.contains("it is a text file, not audio"), "\(name): \(bad.errors)")
            }
            #expect(
                !bad.errors.contains("does not exist or is not a regular file (possibly a pipe?)."), "\(bad.errors)")
        }
    }
}
