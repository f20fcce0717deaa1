import Foundation
import Synchronization
import Testing

@testable import Forge

/// `forge align narration --audio` on a human narrator's recording (LibriVox, in Resources): the right text
/// passes, and the ways a recording and a text go wrong in production are each caught (exit 1)
/// with a report that says what and where.
@Suite("Narration against its text")
struct NarrationMismatchTests {
    static let recording = Fixtures.packageRoot.appendingPathComponent(
        "Tests/ForgeTests/Resources/librivox-sense-and-sensibility.flac")
    static let transcript = Fixtures.packageRoot.appendingPathComponent(
        "Tests/ForgeTests/Resources/librivox-sense-and-sensibility.txt")
    /// Where the recording's five utterances start (the distribution's speech labels), in ms.
    static let speechOnsets = [236, 7_351, 10_350, 15_636, 21_709]

    func align(_ project: TestProject, text: String, output: String) throws -> (status: Int32, report: [String: Any]) {
        try project.directory.write("\(output).txt", text)
        let result = try project.forge([
            "align", "narration", "--audio", "recording.flac", "--text", "\(output).txt", "--output", output, "--json",
        ])
        return (result.status, try #require(result.events("narration").first, "\(result.text) \(result.errors)"))
    }

    func spans(_ report: [String: Any], _ kind: NarrationSpan.Kind) -> [[String: Any]] {
        (report["spans"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind.rawValue }
    }

    /// Energy snapping on audio whose onsets are known to the sample: quiet noise, a tone from
    /// 0.5 s to 0.8 s, noise, a tone from 1.0 s to 1.3 s.
    @Test func wordStartsBesideAPauseMoveToTheSpeechOnset() {
        var generator = SystemRandomNumberGenerator()
        let samples: [Int16] = (0..<24_000).map { index in
            let second = Double(index) / 16_000
            let tone = (0.5..<0.8).contains(second) || (1.0..<1.3).contains(second)
            return tone
                ? Int16(8_000 * sin(2 * Double.pi * 200 * second)) : Int16.random(in: -30...30, using: &generator)
        }
        let placed = SpeechOnsets(samples: samples[...]).snapped([
            WordPlacement(startMs: 200, endMs: 800, confidence: 1),  // starts 300 ms inside the pause
            WordPlacement(startMs: 1_100, endMs: 1_200, confidence: 1),  // starts 100 ms into the tone after a pause
            WordPlacement(startMs: 1_200, endMs: 1_300, confidence: 1),  // follows a word with no pause between
        ])
        #expect(placed.map { $0?.startMs } == [500, 1_000, 1_200])
        #expect(placed.map { $0?.endMs } == [800, 1_200, 1_300])
    }

    /// Where a narrator can take the text up again: sound after a pause at least as long as
    /// asked, not after a shorter gap, and not the audio's first frame. Quiet noise, tones from
    /// 0 to 0.2 s, 0.5 to 0.8 s (after 300 ms of noise) and 0.9 to 1.2 s (after 100 ms).
    @Test func onsetsAfterPausesAreWhereSoundFollowsALongEnoughQuiet() {
        var generator = SystemRandomNumberGenerator()
        let samples: [Int16] = (0..<24_000).map { index in
            let second = Double(index) / 16_000
            let tone = (0..<0.2).contains(second) || (0.5..<0.8).contains(second) || (0.9..<1.2).contains(second)
            return tone
                ? Int16(8_000 * sin(2 * Double.pi * 200 * second)) : Int16.random(in: -30...30, using: &generator)
        }
        let onsets = SpeechOnsets(samples: samples[...])
        #expect(onsets.onsets(afterPausesOf: 250) == [50])
        #expect(onsets.onsets(afterPausesOf: 100) == [50, 90])
        #expect(onsets.onsets(afterPausesOf: 400).isEmpty)
    }

    @Test func theRightTextPassesAndEveryWrongOneIsCaught() throws {
        let project = try TestProject()
        try FileManager.default.copyItem(at: Self.recording, to: project.directory.file("recording.flac"))
        let right = try String(contentsOf: Self.transcript, encoding: .utf8)
        let paragraphs = right.components(separatedBy: "\n\n")

        // The right text: every word heard, no speech left over, exit 0.
        let good = try align(project, text: right, output: "right")
        #expect(good.status == 0, "\(good.report)")
        #expect(
            good.report["unmatchedWords"] as? Int == 0 && good.report["unmatchedSpeechMs"] as? Int == 0,
            "\(good.report)")
        #expect(spans(good.report, .matched).count == 1)
        // Each utterance's first word starts at the speech onset the recording's labels give.
        let manifest = try Manifest(directory: project.directory.file("right"), create: false)
        let items = try manifest.items()
        #expect(items.count == 5)
        var onsetErrors: [Int] = []
        var itemStart = 0
        for (item, onset) in zip(items, Self.speechOnsets) {
            // Items' audio is cut from the recording in order, so an item starts where the ones before it end.
            let start = try #require(try manifest.timings(of: item.id).first??.startMs) + itemStart
            onsetErrors.append(abs(start - onset))
            itemStart += item.durationMs ?? 0
        }
        // Starts are snapped to the onset by energy: without that, two of them are 59 and 36 ms early.
        #expect(
            onsetErrors.sorted()[2] <= 30 && onsetErrors.allSatisfy { $0 <= 45 },
            "first-word starts against labelled onsets, ms: \(onsetErrors)")

        // Another text of the same length: most of it not heard, and most of the speech not in it.
        let book = Fixtures.sampleText
        let wrongWords = book[book.range(of: "It is a truth universally")!.lowerBound...].split(separator: " ").prefix(
            80)
        let wrong = try align(project, text: wrongWords.joined(separator: " ") + "\n", output: "wrong")
        #expect(wrong.status == 1)
        #expect((wrong.report["unmatchedFraction"] as? Double ?? 0) > 0.5, "\(wrong.report)")

        // The text of the first two utterances only: the rest of the recording is audio without text.
        let short = try align(project, text: paragraphs[0] + "\n\n" + paragraphs[1] + "\n", output: "short")
        #expect(short.status == 1)
        let extra = spans(short.report, .audioWithoutText)
        #expect(extra.reduce(0) { $0 + ($1["endMs"] as! Int) - ($1["startMs"] as! Int) } >= 10_000, "\(short.report)")
        #expect((extra.first?["startMs"] as? Int ?? 0) >= 9_000, "\(extra)")
        #expect(short.report["unmatchedWords"] as? Int == 0)

        // The right text and 2,000 words more: the tail is reported where the recording ends,
        // its items get no audio, and no window searched it.
        let long = try align(
            project,
            text: right + "\n" + wrongWords.joined(separator: " ") + "\n\n"
                + String(repeating: "And so the story goes on and on. ", count: 250) + "\n", output: "long")
        #expect(long.status == 1)
        let tail = spans(long.report, .textNotInAudio)
        #expect(tail.count == 1 && (tail.first?["firstItem"] as? String) != nil, "\(long.report)")
        #expect(tail.first?["startMs"] as? Int ?? 0 >= 24_000, "\(tail)")
        #expect(long.report["itemsNotInRecording"] as? Int ?? 0 >= 2)
        #expect(
            spans(long.report, .matched).count == 1 && long.report["unmatchedSpeechMs"] as? Int == 0, "\(long.report)")
    }

    /// Three or four words the narrator did not read, added to the text mid-sentence: each is
    /// reported as one span of exactly them, however quickly the words around them are said.
    @Test func afewWordsTheNarratorLeftOutAreOneSpanOfThem() throws {
        let project = try TestProject()
        try FileManager.default.copyItem(at: Self.recording, to: project.directory.file("recording.flac"))
        let right = try String(contentsOf: Self.transcript, encoding: .utf8)
        for (index, (read, written, added)) in [
            ("Unless to be rather", "Unless to be in every way rather", "in every way"),
            ("an ill disposed young man", "an ill disposed and very rich young man", "and very rich"),
        ].enumerated() {
            let text = right.replacingOccurrences(of: read, with: written)
            let result = try align(project, text: text, output: "added-\(index)")
            let missing = spans(result.report, .textNotInAudio)
            #expect(missing.map { $0["text"] as? String } == [added], "\(result.report)")
        }
    }

    /// A window with a run of unheard words among heard ones (words the narrator left out) is
    /// searched again allowing skips, a large search; an examination that only confirms where
    /// Forge's own reading put the words is not, and passes no large search through its gate.
    @Test func aWindowIsSearchedAgainAllowingSkipsOnlyWhereAsked() throws {
        let audio = try SoundFile.decode(fileAt: Self.recording)
        let samples = RecognizerAudio(samples: RecognizerInput.samples(audio.samples[...], from: audio.sampleRate))
        let text = try String(contentsOf: Self.transcript, encoding: .utf8).replacingOccurrences(
            of: "an ill disposed young man", with: "an ill disposed and very rich but also rather greedy young man")
        let texts = Tokenizer.words(in: text).map(\.text)
        for retries in [true, false] {
            let aligner = try NarrationAligner(model: .standard, language: "en-us")
            aligner.retriesSkips = retries
            let placed = try aligner.place(texts: texts, samples: samples)
            #expect(placed.placements.count == texts.count)
            #expect(
                (aligner.searchGate.largeSearchCount > 0) == retries,
                "retries \(retries): \(aligner.searchGate.largeSearchCount) large searches")
        }
    }

    /// Runs of unheard words between heard ones, as the search left them: a short run that fits
    /// its audio about as well as a quickly said phrase is heard text; one that fits as words of
    /// another text do, or a longer one, is text not in the recording.
    @Test func aShortRunIsMissingTextOnlyWhenItFitsLikeAnotherText() {
        func spans(_ run: [(confidence: Double, fit: Double)]) -> [NarrationSpan] {
            let count = 10 + run.count
            let words = (0..<count).map { WordToken(index: $0, text: "word", start: 5 * $0, end: 5 * $0 + 4) }
            var placements: [WordPlacement?] = []
            for index in 0..<count {
                let (confidence, fit) = (5..<(5 + run.count)).contains(index) ? run[index - 5] : (1, 0)
                placements.append(
                    WordPlacement(startMs: 300 * index, endMs: 300 * index + 250, confidence: confidence, fit: fit))
            }
            let speech = FrameFlags([Bool](repeating: true, count: 30 * count + 1))
            return NarrationAligner.result(
                words: words, placements: placements, speech: speech, durationMs: 300 * count
            )
            .spans.filter { $0.kind == .textNotInAudio }
        }
        // The Piper benchmark's "to her it", said quickly: heard.
        #expect(spans([(0, -1.2), (1, -3.4), (0, -6.0)]).isEmpty)
        // Words added to a LibriVox reading's text, forced onto the speech around them: missing.
        #expect(spans([(0, -9.2), (0, -12.4), (0, -16.8)]).map(\.words) == [5..<8])
        #expect(spans([(0, -6.7), (0, -14.4), (0, -9.9), (0, -8.0)]).map(\.words) == [5..<9])
        // Five words in a row not heard are missing however well they fit.
        #expect(spans([(0.33, -3.5), (0.33, -3.5), (0.33, -3.5), (0.33, -3.5), (0.33, -3.5)]).map(\.words) == [5..<10])
    }

    /// Stretches examined side by side share one gate: a large search (locating text, skipping
    /// words), each holding tens of megabytes, runs with no other search beside it while the
    /// process is large (here: always, or a process over one byte), and beside ordinary ones
    /// while it is small (here: under `Int.max` bytes); two large ones never run together,
    /// ordinary searches run beside each other, and each search's result comes back to its caller.
    @Test(arguments: [0, 1, Int.max])
    func largeSearchesThroughOneGateRunAloneWhileTheProcessIsLarge(sharedBelowBytes: Int) throws {
        let gate = SearchGate(sharedBelowBytes: sharedBelowBytes)
        let running = Mutex((large: 0, ordinary: 0, mostOrdinary: 0, largeBesideOrdinary: false, twoLarge: false))
        let results = Mutex([Int: Int]())
        try BlockingThreads.forEachIndex(24, threads: 4, cancellation: nil) { index in
            let isLarge = index % 3 == 0
            let search = {
                running.withLock {
                    if isLarge { $0.large += 1 } else { $0.ordinary += 1 }
                    $0.largeBesideOrdinary = $0.largeBesideOrdinary || ($0.large > 0 && $0.ordinary > 0)
                    $0.twoLarge = $0.twoLarge || $0.large > 1
                    $0.mostOrdinary = max($0.mostOrdinary, $0.ordinary)
                }
                usleep(20_000)
                running.withLock { if isLarge { $0.large -= 1 } else { $0.ordinary -= 1 } }
                return index
            }
            let found = isLarge ? gate.alone(search) : gate.beside(search)
            results.withLock { $0[index] = found }
        }
        let small = sharedBelowBytes == Int.max
        #expect(!running.withLock { $0.twoLarge }, "two large searches ran together")
        #expect(
            running.withLock { $0.largeBesideOrdinary } == small,
            small ? "a large search never ran beside an ordinary one" : "a large search ran beside an ordinary one")
        #expect((gate.sharedLargeSearchCount > 0) == small)
        #expect(gate.largeSearchCount == 8)
        #expect(running.withLock { $0.mostOrdinary } >= 2, "ordinary searches never ran together")
        #expect(results.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<24).map { ($0, $0) }))
    }

    /// The gate reads the process's resident memory as the kernel reports it (VmRSS), not its
    /// address space, which is gigabytes larger with a test run's threads.
    @Test func theGateReadsTheProcessesResidentMemory() throws {
        let read = SearchGate.residentBytes()
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ")[1]))
        #expect(abs(read - kilobytes * 1024) < 32 << 20, "\(read) bytes; \(line)")
    }

    /// The packed frame flags and placements a long alignment keeps give back exactly what was
    /// stored: every frame (across word boundaries of the bits, set and cleared again) and every
    /// placement, with and without its confidence and fit.
    @Test func packedFramesAndPlacementsGiveBackWhatWasStored() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 63, 64, 65, 1_000] {
            var flags = FrameFlags(count: count)
            var expected = [Bool](repeating: false, count: count)
            for _ in 0..<(3 * count) {
                let frame = Int.random(in: 0..<max(1, count), using: &generator)
                guard frame < count else { break }
                let value = Bool.random(using: &generator)
                flags[frame] = value
                expected[frame] = value
            }
            #expect(flags.setCount == expected.filter { $0 }.count)
            var packed = FrameFlags(expected)
            #expect(packed.drained() == expected)
            #expect(flags.drained() == expected)
            var list = PlacementList(count: count)
            var placements = [WordPlacement?](repeating: nil, count: count)
            for _ in 0..<(2 * count) {
                let word = Int.random(in: 0..<max(1, count), using: &generator)
                guard word < count else { break }
                let start = Int.random(in: 0...100_000_000, using: &generator)
                let placement: WordPlacement? =
                    Bool.random(using: &generator)
                    ? nil
                    : WordPlacement(
                        startMs: start, endMs: start + Int.random(in: 1...2_000, using: &generator),
                        confidence: Bool.random(using: &generator) ? nil : Double.random(in: 0...1, using: &generator),
                        fit: Bool.random(using: &generator) ? nil : Double.random(in: -20...2, using: &generator))
                list[word] = placement
                placements[word] = placement
            }
            #expect(list.drained() == placements)
        }
    }

    /// Audio without text is speech no matched span covers, by its definition frame by frame
    /// (a flag per frame, as it was computed before the covered frames became ranges): random
    /// heard runs, timings that touch and overlap by a frame, and speech with gaps, 300 times.
    @Test func audioWithoutTextIsTheSpeechNoMatchedSpanCovers() {
        var generator = SystemRandomNumberGenerator()
        var reportedSpeech = 0
        for _ in 0..<300 {
            let count = Int.random(in: 1...60, using: &generator)
            var heard: [Bool] = []
            while heard.count < count {
                heard += repeatElement(Bool.random(using: &generator), count: Int.random(in: 1...8, using: &generator))
            }
            heard = Array(heard.prefix(count))
            var timings: [WordTiming] = []
            var at = Int.random(in: 0...3_000, using: &generator)
            for _ in 0..<count {
                let start = at + Int.random(in: 0...1_500, using: &generator) - 10
                let end = max(start + 1, start + Int.random(in: 1...700, using: &generator))
                timings.append(WordTiming(startMs: max(0, start), endMs: end))
                at = end
            }
            let durationMs = at + Int.random(in: 0...5_000, using: &generator)
            var speech: [Bool] = []
            while speech.count < durationMs / 10 + 1 {
                speech += repeatElement(
                    Bool.random(using: &generator), count: Int.random(in: 1...150, using: &generator))
            }
            speech = Array(speech.prefix(durationMs / 10 + 1))
            let (spans, unmatched) = NarrationAligner.spans(
                heard: heard, timings: timings, speech: FrameFlags(speech), durationMs: durationMs)
            // The definition: a frame is covered when a matched span's milliseconds reach it.
            var covered = [Bool](repeating: false, count: speech.count)
            for span in spans where span.kind == .matched {
                let first = max(0, span.startMs / 10)
                let last = min(speech.count, span.endMs / 10 + 1)
                if first < last { for frame in first..<last { covered[frame] = true } }
            }
            let uncovered = speech.indices.filter { speech[$0] && !covered[$0] }
            var expected: [NarrationSpan] = []
            var expectedFrames = 0
            var run: [Int] = []
            func close() {
                if let first = run.first, let last = run.last,
                    run.count * 10 >= NarrationAligner.shortestUnmatchedSpeechMs
                {
                    expected.append(
                        NarrationSpan(
                            kind: .audioWithoutText, startMs: first * 10, endMs: min(durationMs, (last + 1) * 10),
                            words: 0..<0))
                    expectedFrames += run.count
                }
                run = []
            }
            for frame in uncovered {
                if let last = run.last, (frame - last) * 10 > NarrationAligner.speechGapMs { close() }
                run.append(frame)
            }
            close()
            #expect(spans.filter { $0.kind == .audioWithoutText } == expected)
            #expect(unmatched == expectedFrames)
            reportedSpeech += expected.count
        }
        // The cases reach the rule: speech is reported in some of them.
        #expect(reportedSpeech > 0)
    }

    /// A page of the text the narrator skipped: in windows shorter than the recording, the window
    /// after the page finds the text further on and the alignment goes on from there, rather than
    /// waiting at the page while the rest of the recording goes by.
    @Test func theAlignmentPicksUpAfterASkippedPage() throws {
        let utterances = try String(contentsOf: Self.transcript, encoding: .utf8).components(separatedBy: "\n\n").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let page = Fixtures.sampleText.split(whereSeparator: \.isWhitespace).dropFirst(400).prefix(100).joined(
            separator: " ")
        let text = ([utterances[0], page] + utterances[1...]).joined(separator: " ")
        let words = Tokenizer.words(in: text)
        let pageWords =
            Tokenizer.words(in: utterances[0]).count..<(Tokenizer.words(in: utterances[0] + " " + page).count)
        let aligner = try NarrationAligner()
        aligner.windowSeconds = 10
        aligner.marginSeconds = 3
        let result = try aligner.align(words: words, audio: try SoundFile.decode(fileAt: Self.recording))
        #expect(pageWords.allSatisfy { !result.heard[$0] }, "the page is not in the recording")
        let lastTwo = (words.count - Tokenizer.words(in: utterances[3] + " " + utterances[4]).count)..<words.count
        let heardAfter = lastTwo.filter { result.heard[$0] }.count
        #expect(
            Double(heardAfter) >= 0.9 * Double(lastTwo.count),
            "the last two utterances are heard: \(heardAfter) of \(lastTwo.count)")
    }
}
