import Foundation
import Testing

@testable import Forge

@Suite("Verification: transcribing the audio back")
struct VerificationTests {
    static let verify = #""verify": { "maxWordErrorRate": 0.25 }"#

    func report(_ result: ForgeResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any], "\(result.text)\n\(result.errors)")
    }

    func flagged(_ report: [String: Any]) -> (items: Set<String>, chunks: Set<Int>) {
        var items = Set<String>()
        var chunks = Set<Int>()
        for chunk in report["chunks"] as? [[String: Any]] ?? [] {
            let ids = (chunk["flaggedItems"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            items.formUnion(ids)
            if !ids.isEmpty || chunk["exceeds"] as? Bool == true { chunks.insert(chunk["chunk"] as? Int ?? -1) }
        }
        return (items, chunks)
    }

    /// The clean build passes; then one item's audio is replaced by another item's, one is cut to
    /// a third, one is silenced: verify flags exactly those items, in exactly their chunks.
    @Test func verifyFlagsSwappedTruncatedAndSilentAudioAndNothingElse() throws {
        // One worker: espeak-ng's output for an item depends slightly on what the same process spoke
        // before it (durations differ by tens of ms), so two workers make a different book each run.
        let project = try TestProject(book: Fixtures.firstChapter, recipe: Fixtures.recipe(voice: "en-us+klatt", jobs: 1, extra: Self.verify))
        let build = try project.build()
        #expect(build.status == 0, "\(build.text)\n\(build.errors)")
        let summary = try #require(build.events("summary").first)
        #expect(summary["verificationPassed"] as? Bool == true)
        #expect(build.events("verified").count == 3, "4:40 of audio is three chunks")
        // The table's columns line up: each rate ends under "WER" (the en dash in "0:00–2:00" is one character, not three bytes).
        let table = try project.forge(["verify", "out"]).lines.filter { $0.contains("%") || $0.hasPrefix("chapter") }
        let header = try #require(table.first { $0.hasPrefix("chapter") })
        let werEnd = header.distance(from: header.startIndex, to: try #require(header.range(of: "WER")).upperBound) - 1
        let rows = table.filter { $0.contains("–") }
        #expect(rows.count == 3 && rows.allSatisfy { row in row.firstIndex(of: "%").map { row.distance(from: row.startIndex, to: $0) } == werEnd }, "\(table)")

        // Pick one long item in each chunk.
        let store = ObjectStore(root: project.output)
        let timeline = try #require(try TimelineBuilder(store: store, manifest: project.manifest(), settings: ExportSettings()).timelines().first)
        func longItem(inChunk chunk: Int) throws -> TimedItem {
            try #require(timeline.items.filter { $0.startMs >= chunk * 120_000 + 5000 && $0.endMs <= (chunk + 1) * 120_000 && $0.words.count >= 15 }.first)
        }
        let swapped = try longItem(inChunk: 0)
        let truncated = try longItem(inChunk: 1)
        let silenced = try longItem(inChunk: 2)
        let donor = try #require(timeline.items.last { $0.words.count >= 15 && $0.record.id != silenced.record.id })
        let url = { (item: TimedItem) in store.url(forRelativePath: item.audioPath) }
        // Silence first, alone: the same length, so only the file itself changed behind the store's back.
        let quiet = try SoundFile.decode(fileAt: url(silenced))
        try FileManager.default.removeItem(at: url(silenced))
        try Data(SoundFile.encode([Int16](repeating: 0, count: quiet.samples.count), sampleRate: quiet.sampleRate, format: .wav)).write(to: url(silenced))
        let silentOnly = flagged(try report(try project.forge(["verify", "out", "--json", "--max-wer", "0.25"])))
        #expect(silentOnly.items == [silenced.record.id], "flagged \(silentOnly)")
        #expect(silentOnly.chunks == [2], "flagged \(silentOnly)")

        let donorBytes = try Data(contentsOf: url(donor))
        try FileManager.default.removeItem(at: url(swapped))
        try donorBytes.write(to: url(swapped))
        let cut = try SoundFile.decode(fileAt: url(truncated))
        try FileManager.default.removeItem(at: url(truncated))
        try Data(SoundFile.encode(Array(cut.samples.prefix(cut.samples.count / 3)), sampleRate: cut.sampleRate, format: .wav)).write(to: url(truncated))

        let result = try project.forge(["verify", "out", "--json", "--max-wer", "0.25"])
        let found = flagged(try report(result))
        #expect(found.items == [swapped.record.id, truncated.record.id, silenced.record.id], "flagged \(found.items): \(result.text)")
        #expect(found.chunks == [0, 1, 2])
        #expect(result.status == 1 || found.items.count == 3)
    }

    /// A build with its own pauses, title and gate: `forge verify` and `forge export` given only the
    /// directory (or a copy of it) use the build's settings, so nothing is transcribed again.
    @Test func aRerunTranscribesOnlyWhatChanged() throws {
        let settings = #""title": "Alice Abroad", "exports": { "formats": ["json"], "pauses": { "sentenceMs": 400, "paragraphMs": 900, "chapterMs": 2000 } }, "#
        let project = try TestProject(recipe: Fixtures.recipe(voice: "en-us+klatt", extra: settings + Self.verify))
        #expect(try project.build().status == 0)
        let again = try report(try project.forge(["verify", "out", "--json"]))
        #expect(again["transcribedChunks"] as? Int == 0, "nothing changed, nothing transcribed: the build's pauses are verify's")
        #expect(again["maxWordErrorRate"] as? Double == 0.25, "the build's gate is verify's default")
        let chapters = Set((again["chunks"] as? [[String: Any]] ?? []).compactMap { $0["chapter"] as? Int })
        #expect(chapters == [1, 2])
        // A copy of the directory (new inodes and times) keeps its verification: keys come from content.
        try FileManager.default.copyItem(at: project.output, to: project.directory.file("copy"))
        let copied = try report(try project.forge(["verify", "copy", "--json"]))
        #expect(copied["transcribedChunks"] as? Int == 0, "\(copied)")
        let exported = try project.forge(["export", "copy", "--format", "epub", "json"])
        #expect(exported.status == 0, "\(exported.errors)")
        let epubs = try FileManager.default.contentsOfDirectory(atPath: project.directory.file("copy/exports/epub").path)
        #expect(epubs == ["alice-abroad.epub"], "the build's title names the EPUB: \(epubs)")
        #expect(try project.forge(["export", "copy", "--format", "epub", "--title", "Alice at Home"]).status == 0)
        let renamed = try FileManager.default.contentsOfDirectory(atPath: project.directory.file("copy/exports/epub").path)
        #expect(renamed == ["alice-at-home.epub"], "a retitled export replaces the old EPUB: \(renamed)")
        let timings = try String(contentsOf: project.directory.file("copy/exports/json/chapter-001.json"), encoding: .utf8)
        let built = try String(contentsOf: project.output.appendingPathComponent("exports/json/chapter-001.json"), encoding: .utf8)
        #expect(timings == built, "the standalone export times chapters with the build's pauses")
        // Edit chapter 2 only: chapter 1's chunk is reused.
        try project.write(book: Fixtures.shortBook.replacingOccurrences(of: "Don’t keep coughing so, Kitty", with: "Do not keep coughing so, Kitty"))
        let rebuilt = try project.build()
        #expect(rebuilt.events("verified").map { $0["chapter"] as? Int } == [2])
        // Chapter 2's model was rebuilt from its new text and the old one removed.
        let files = try FileManager.default.contentsOfDirectory(atPath: project.output.appendingPathComponent("verify").path)
        #expect(files.filter { $0.hasPrefix("lm-chapter-002-") }.count == 1, "\(files)")
        #expect(files.filter { $0.hasPrefix("lm-chapter-001-") }.count == 1, "\(files)")
        #expect(files.filter { $0.hasPrefix("dict-") }.count == 1, "\(files)")
    }

    @Test func missingRecognizerIsReportedAndFailsOnlyWhenRequired() throws {
        let environment = ["FORGE_POCKETSPHINX_MODEL": "/nonexistent/model"]
        let project = try TestProject(recipe: Fixtures.recipe(extra: Self.verify))
        let optional = try project.build(environment: environment)
        #expect(optional.status == 0)
        #expect(optional.events("summary").first?["verified"] as? Bool == false)
        #expect((optional.events("summary").first?["verificationUnavailable"] as? String ?? "").contains("pocketsphinx-en-us"))
        try project.write(recipe: Fixtures.recipe(extra: #""verify": { "required": true }"#))
        let required = try project.build(environment: environment)
        #expect(required.status == 3)
        #expect(required.errors.contains("verify.required"))
    }

    /// A chapter's last chunk can be a second long, with only the tail of a word cut at its start:
    /// one word heard against none expected is a rate of 100%, and must not fail a build.
    @Test func aChunkFailsTheLimitOnlyWithSeveralErrors() {
        let tail = ChunkReport(chapter: 19, startMs: 600_000, endMs: 601_709, wordErrorRate: 1, referenceWords: 0, errors: 1, flaggedItems: [], transcribed: true)
        #expect(!tail.exceeds(0.25) && !tail.isFlagged(0.25))
        let bad = ChunkReport(chapter: 1, startMs: 0, endMs: 120_000, wordErrorRate: 0.3, referenceWords: 10, errors: 3, flaggedItems: [], transcribed: true)
        #expect(bad.exceeds(0.25) && !bad.exceeds(0.3) && !bad.exceeds(nil))
    }

    @Test func wordErrorRateAndNormalization() {
        #expect(TranscriptNormalizer.tokens("Mr. Bennet, in 1811, was 21; the 3rd time!") == ["mister", "bennet", "in", "eighteen", "eleven", "was", "twenty", "one", "the", "third", "time"])
        let rate = WordErrorRate(reference: ["a", "b", "c", "d"], hypothesis: ["a", "x", "c"])
        #expect(rate.errors == 2 && rate.heard == [true, false, true, false])
        #expect(abs(rate.rate - 0.5) < 1e-9)
    }

    /// Chunks render only their own stretch of a chapter; it must be exactly that stretch of the
    /// whole chapter's audio, items cut at both ends included.
    @Test func aStretchOfAChapterIsThatPartOfTheWholeChapter() throws {
        let project = try TestProject(recipe: Fixtures.recipe())
        #expect(try project.build().status == 0)
        let store = ObjectStore(root: project.output)
        let timeline = try #require(try TimelineBuilder(store: store, manifest: project.manifest(), settings: ExportSettings()).timelines().first)
        let whole = try ChapterAudio.render(timeline, store: store)
        let second = try #require(timeline.items.dropFirst().first)
        // From the middle of the first item to the middle of the third (or the end).
        let range = (timeline.items[0].sampleCount / 2)..<min(whole.count, second.startSample + second.sampleCount + 3_000)
        let stretch = try ChapterAudio.render(timeline, store: store, samples: range)
        #expect(stretch.count == range.count)
        let firstDifference = zip(stretch, whole[range]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "the stretch differs from the whole chapter's audio from sample \(firstDifference ?? 0) on")
        #expect(stretch.contains { $0 != 0 })
    }

    /// The decoders get a dictionary of the book's words only: every CMU variant of a word it
    /// has, espeak-ng's pronunciation of one it lacks, nothing else.
    @Test func theDictionaryHoldsTheBooksWordsOnly() throws {
        let model = RecognizerModel.standard
        let dictionary = try PronouncingDictionary(words: ["The", "the", "Zorblaxian", "house’s"], base: model.dictionary, language: "en-us")
        let lines = dictionary.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("the DH AH") && lines.contains("the(2) DH IY"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("house's ") })
        let invented = try #require(lines.first { $0.hasPrefix("zorblaxian ") })
        #expect(invented.split(separator: " ").count >= 8, "espeak-ng's phones for an invented word: \(invented)")
        #expect(Set(lines.map { String($0.split(separator: " ")[0].split(separator: "(")[0]) }) == ["the", "house's", "zorblaxian"])
    }
}
