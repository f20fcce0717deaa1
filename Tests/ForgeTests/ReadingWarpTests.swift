import Forge
import Foundation
import Testing

@Suite struct ReadingWarpTests {
    /// Frames of noise, each unlike the others, so that only one pairing fits.
    static func noise(_ count: Int, dimension: Int = 12, seed: UInt64) -> [[Float]] {
        var state = seed
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2000) / 1000 - 1
        }
        return (0..<count).map { _ in (0..<12).map { _ in next() } }
    }

    static func frames(_ rows: [[Float]]) -> ReadingWarp.Frames {
        ReadingWarp.Frames(values: rows.flatMap { $0 }, dimension: rows.first?.count ?? 12)
    }

    /// The same reading slowed unevenly (a frame held for one to three frames) between passages
    /// the reference does not have: every reference frame must land on the first of its copies.
    @Test(arguments: [1, 2, 3])
    func aStretchedReadingBehindAnIntroIsPairedFrameByFrame(seed: UInt64) {
        let reading = Self.noise(3000, seed: seed)
        let intro = Self.noise(400, seed: seed + 100)
        var recording = intro
        var expected: [Int] = []
        for (index, frame) in reading.enumerated() {
            expected.append(recording.count)
            for _ in 0..<(1 + (index * 7 + Int(seed)) % 3) { recording.append(frame) }
        }
        recording += Self.noise(300, seed: seed + 200)
        let path = ReadingWarp(radius: 8, coarsest: 64).path(Self.frames(reading), Self.frames(recording))
        #expect(path.count == reading.count)
        // The first and last frames may share out the intro and the outro (each costs as much there
        // as another); from a fifth of a second in to a fifth before the end, every frame lands exactly.
        let wrong = zip(path, expected).enumerated().dropFirst(20).dropLast(20).filter {
            $0.element.0.first != $0.element.1
        }
        #expect(wrong.count == 0, "\(wrong.prefix(5).map { ($0.offset, $0.element.0.first, $0.element.1) })")
        // What the reference does not have is held by its first and last frames: long runs that say so.
        #expect(path[0].first == 0 && path[19].last >= intro.count)
        #expect(path[path.count - 1].last == recording.count - 1 && path[path.count - 20].first < recording.count - 300)
        #expect(path.dropFirst(20).dropLast(20).allSatisfy { $0.cost < 0.01 })
    }

    /// A paragraph of the reference left out of the recording: the frames around the gap still
    /// land where they are, and the left-out ones cost far more than the rest.
    @Test func aSkippedPassageCostsWhereItIsAndNowhereElse() {
        let reading = Self.noise(4000, seed: 7)
        let recording = Array(reading[0..<1500] + reading[1800...])
        let path = ReadingWarp(radius: 8, coarsest: 64).path(Self.frames(reading), Self.frames(recording))
        #expect(path[1000].first == 1000)
        #expect(path[1499].first == 1499)
        #expect(path[2500].first == 2200)
        #expect(path[3999].first == 3699)
        let skipped = path[1510..<1790].map(\.cost)
        let kept = (path[0..<1480] + path[1820..<4000]).map(\.cost)
        #expect(skipped.min()! > 1)
        #expect(kept.max()! < 0.01, "\(kept.enumerated().filter { $0.element >= 0.01 }.prefix(5))")
    }

    /// Coarse to fine finds the path the whole matrix has, on readings small enough to search whole.
    @Test func theBandFindsWhatTheWholeMatrixFinds() {
        let reading = Self.noise(600, seed: 11)
        var recording: [[Float]] = []
        for (index, frame) in reading.enumerated() {
            // A blurred copy: each frame half its neighbour, so the pairing is not exact.
            let neighbour = reading[min(reading.count - 1, index + 1)]
            let blurred = zip(frame, neighbour).map { 0.7 * $0 + 0.3 * $1 }
            for _ in 0..<(index % 4 == 0 ? 2 : 1) { recording.append(blurred) }
        }
        let whole = ReadingWarp(radius: 8, coarsest: 10_000).path(Self.frames(reading), Self.frames(recording))
        let banded = ReadingWarp(radius: 8, coarsest: 32).path(Self.frames(reading), Self.frames(recording))
        #expect(whole == banded)
    }

    /// Cepstra become frames without their energy, each coefficient centred and scaled.
    @Test func framesAreNormalizedAndLeaveOutTheEnergy() {
        let cepstra: [Float] = [100, 1, 2, 200, 3, 6, 300, 5, 10]
        let frames = ReadingWarp.Frames(cepstra: cepstra, coefficients: 3)
        #expect(frames.dimension == 2 && frames.count == 3)
        let first = stride(from: 0, to: 6, by: 2).map { frames.values[$0] }
        #expect(abs(first.reduce(0, +)) < 1e-5)
        #expect(abs(first.map { $0 * $0 }.reduce(0, +) / 3 - 1) < 1e-4)
        #expect(first[0] < first[1] && first[1] < first[2])
    }

    /// Two real readings of a paragraph by espeak-ng, in two voices at two paces (175 and 130
    /// words a minute): each word's start in the first, carried through the warp, lands near where
    /// the second says it.
    @Test func aWordOfOneReadingLandsWhereAnotherVoiceSaysIt() throws {
        let engine = try EspeakEngine()
        let text = """
            It is a truth universally acknowledged, that a single man in possession of a good fortune, must be \
            in want of a wife. However little known the feelings or views of such a man may be on his first \
            entering a neighbourhood, this truth is so well fixed in the minds of the surrounding families, \
            that he is considered as the rightful property of some one or other of their daughters.
            """
        let words = Tokenizer.words(in: text)
        func reading(_ voice: VoiceSettings) throws -> (frames: ReadingWarp.Frames, starts: [Int]) {
            let speech = try engine.synthesize(text, voice: voice, itemID: "warp")
            let timings = EventAligner.align(words: words, events: speech.events, durationMs: speech.durationMs)
            return (
                try ReadingWarp.Frames(samples: speech.samples, sampleRate: speech.sampleRate), timings.map(\.startMs)
            )
        }
        let reference = try reading(VoiceSettings(id: "en-us", rate: 175))
        let recording = try reading(VoiceSettings(id: "en-gb", rate: 130))
        #expect(recording.frames.count > reference.frames.count * 5 / 4)
        let path = ReadingWarp().path(reference.frames, recording.frames)
        let perFrame = 1000 / ReadingWarp.Frames.perSecond
        let errors = zip(reference.starts, recording.starts).map { start, truth in
            abs(path[min(path.count - 1, start / perFrame)].first * perFrame - truth)
        }.sorted()
        #expect(errors[errors.count / 2] <= 30, "\(errors)")
        #expect(errors[errors.count * 9 / 10] <= 60, "\(errors)")
        #expect(errors.last! <= 150, "\(errors)")
    }

    /// A reading of any length goes through files a block at a time: on readings small enough to
    /// hold, the blocks give the path the whole warp gives, and the scratch files leave nothing;
    /// so they do when the coarse frames are kept few (a long reading's are: their factor doubles
    /// as it grows, each reading's as far as its length takes it).
    @Test(arguments: [1 << 18, 40])
    func blocksFromFilesGiveTheWholePath(maximumCoarse: Int) throws {
        let reading = Self.noise(9000, seed: 21)
        var recording = Self.noise(250, seed: 22)
        for (index, frame) in reading.enumerated() where index % 50 != 7 {
            for _ in 0..<(index % 3 == 0 ? 2 : 1) { recording.append(frame) }
        }
        // As the front end gives them: an energy first, then the coefficients.
        func cepstra(_ rows: [[Float]]) -> [Float] { rows.flatMap { [Float(100)] + $0 } }
        let directory = try TemporaryDirectory()
        let files = try [reading, recording].map { rows in
            let writer = try FrameFile.Writer(
                directory: directory.url, coefficients: 13, factor: 32, maximumCoarse: maximumCoarse)
            for block in stride(from: 0, to: rows.count, by: 1000) {
                try writer.append(cepstra: cepstra(Array(rows[block..<min(rows.count, block + 1000)])))
            }
            return writer.finish()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        for file in files {
            #expect(
                file.coarse.count <= maximumCoarse && (file.factor == 32) == (maximumCoarse > 1000), "\(file.factor)")
        }
        if maximumCoarse < 1000 { #expect(files[0].factor != files[1].factor, "the readings' factors should differ") }
        var blocked: [ReadingWarp.Row] = []
        try ReadingWarp().path(files[0], files[1], blockFrames: 1024, overlap: 512) { first, rows in
            #expect(first == blocked.count)
            blocked += rows
        }
        let whole = ReadingWarp().path(
            ReadingWarp.Frames(cepstra: cepstra(reading), coefficients: 13),
            ReadingWarp.Frames(cepstra: cepstra(recording), coefficients: 13))
        #expect(blocked.count == whole.count)
        let differing = zip(blocked, whole).filter { $0.first != $1.first }.count
        #expect(differing * 1000 <= whole.count, "\(differing) of \(whole.count) rows differ")
        // Once the warp is done with the coarse frames they are freed; the frames are still read from the file.
        let kept = try files[0].frames(100..<200)
        files[0].releaseCoarse()
        #expect(files[0].coarse.count == 0 && files[1].coarse.count > 0)
        #expect(try files[0].frames(100..<200) == kept)
    }
}
