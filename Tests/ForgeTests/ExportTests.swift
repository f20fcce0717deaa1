import Foundation
import GRDB
import Testing
import ZIPFoundation

@testable import Forge
@testable import ForgeCLI

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Collects elements and attributes from an XML document; fails the test on a parse error.
final class XMLElements: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []

    init(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        let parsed = parser.parse()
        #expect(
            parsed, "XML does not parse: \(parser.parserError.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        elements.append((name, attributes))
    }

    func named(_ name: String) -> [[String: String]] { elements.filter { $0.name == name }.map(\.attributes) }
}

@Suite("Exports: chapter audio, JSON, captions, EPUB 3, HTML")
struct ExportTests {
    static let allFormats =
        #""exports": { "formats": ["audio", "json", "vtt", "srt", "epub", "html"], "maxCueCharacters": 60 }"#

    /// A built short book with every export, shared by the tests below that only read it.
    static func builtProject() throws -> TestProject {
        let project = try TestProject(recipe: Fixtures.recipe(extra: allFormats))
        let result = try project.build()
        #expect(result.status == 0, "\(result.errors)")
        #expect((result.events("summary").first?["exported"] as? Int ?? 0) > 10)
        return project
    }

    func chapterJSON(_ project: TestProject, _ stem: String) throws -> [String: Any] {
        let data = try Data(contentsOf: project.output.appendingPathComponent("exports/json/\(stem).json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Milliseconds from `hh:mm:ss.mmm` or `hh:mm:ss,mmm`.
    func milliseconds(_ clock: Substring) -> Int {
        let parts = clock.split(whereSeparator: { $0 == ":" || $0 == "." || $0 == "," }).compactMap { Int($0) }
        return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + parts[3]
    }

    /// Forced alignment's confidences (thousandths) are written as JSONEncoder writes them.
    @Test func anExportOfUnchangedInputsIsUpToDateUnlessAFileIsGoneOrForced() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        func export(_ extra: [String] = []) throws -> [String: Any] {
            let result = try project.forge(["export", "out", "--format", "audio", "vtt", "--json"] + extra)
            #expect(result.status == 0, "\(result.errors)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        }
        #expect(try export()["upToDate"] as? Bool == false)
        let audio = project.output.appendingPathComponent("exports/audio/chapter-001.wav")
        let written = try FileManager.default.attributesOfItem(atPath: audio.path)[.modificationDate] as? Date
        let again = try export()
        #expect(again["upToDate"] as? Bool == true)
        #expect((again["files"] as? [String])?.contains("exports/audio/chapter-001.wav") == true, "\(again)")
        #expect(
            try FileManager.default.attributesOfItem(atPath: audio.path)[.modificationDate] as? Date == written,
            "an up-to-date export rewrote a file")
        // Another format, a missing file or --force: written again.
        #expect(try export(["--format", "json"])["upToDate"] as? Bool == false)
        #expect(try export()["upToDate"] as? Bool == false)
        try FileManager.default.removeItem(at: audio)
        #expect(try export()["upToDate"] as? Bool == false)
        #expect(FileManager.default.fileExists(atPath: audio.path))
        #expect(try export(["--force"])["upToDate"] as? Bool == false)
    }

    @Test func anExportPrintsItsProgressOnAPipe() throws {
        let project = try Self.builtProject()
        let export = try project.forge(["export", "out", "--format", "audio", "vtt", "epub", "--json"])
        #expect(export.status == 0, "\(export.errors)")
        // Standard error carries the progress; standard output stays one JSON object.
        let lines = export.errors.split(separator: "\n").filter { $0.hasPrefix("export: ") }
        for phase in ["audio", "captions", "epub"] {
            #expect(
                lines.contains { $0.hasPrefix("export: \(phase) chapter ") && $0.contains("(100%)") },
                "\(phase): \(lines)")
        }
        #expect((try? JSONSerialization.jsonObject(with: Data(export.text.utf8))) is [String: Any], "\(export.text)")

        // --progress json: an exporting event per chapter of each phase, the build's JSON Lines objects.
        let json = try project.forge([
            "export", "out", "--format", "audio", "vtt", "epub", "--force", "--progress", "json",
        ])
        #expect(json.status == 0, "\(json.errors)")
        let events = json.errors.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let chapters = try project.manifest().chapters().count
        for phase in ["audio", "captions", "epub"] {
            // Every chapter's end (the audio phase also reports inside chapters, as audio goes out).
            let steps = events.filter { $0["event"] as? String == "exporting" && $0["phase"] as? String == phase }
            let finished = steps.compactMap { $0["finished"] as? Int }
            #expect(
                Set(finished).isSuperset(of: 1...chapters) && finished == finished.sorted()
                    && finished.last == chapters, "\(phase): \(steps)")
            #expect(steps.allSatisfy { $0["toFinish"] as? Int == chapters }, "\(phase): \(steps)")
        }
        #expect(!json.errors.contains("export: "), "text progress beside the JSON: \(json.errors)")
        let quiet = try project.forge(["export", "out", "--format", "audio", "--force", "--progress", "none"])
        #expect(quiet.status == 0 && quiet.errors.isEmpty, "\(quiet.errors)")
    }

    /// A book of one long chapter is not silent until the chapter ends: the phases that put audio out
    /// report it as it goes, by the milliseconds of audio done (JSON) and in percent lines (text).
    @Test func aLongChapterShowsProgressInsideIt() throws {
        let paragraphs = (1...12).map {
            "Paragraph \($0) of a chapter that runs on and on, as the long chapters of long books do, with more words in it."
        }
        let project = try TestProject(book: paragraphs.joined(separator: "\n\n") + "\n")
        #expect(try project.build().status == 0)
        #expect(try project.manifest().chapters().count == 1)
        let json = try project.forge([
            "export", "out", "--format", "acx", "audio", "--mastering", "acx", "--progress", "json", "--no-credits",
        ])
        #expect(json.status == 0, "\(json.errors)")
        let events = json.errors.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for phase in ["acx", "audio"] {
            let steps = events.filter { $0["event"] as? String == "exporting" && $0["phase"] as? String == phase }
            // Inside the chapter, as its audio goes out (a mastering pass's heartbeat, before any, has 0 ms).
            let inside = steps.filter { $0["finished"] as? Int == 0 && ($0["finishedMs"] as? Int ?? 0) > 0 }
            let total = try #require(steps.last?["toFinishMs"] as? Int)
            let done = inside.compactMap { $0["finishedMs"] as? Int }
            #expect(
                done.count >= 3 && done.allSatisfy { $0 > 0 && $0 <= total } && done.contains { $0 < total }
                    && done == done.sorted(), "\(phase): \(steps)")
            #expect(steps.last?["finished"] as? Int == 1 && steps.last?["finishedMs"] as? Int == total)
        }
        let text = try project.forge([
            "export", "out", "--format", "acx", "--mastering", "acx", "--force", "--no-credits",
        ])
        let lines = text.errors.split(separator: "\n").filter { $0.hasPrefix("export: acx chapter 0 of 1 (") }
        #expect(lines.contains { !$0.contains("(0%)") }, "a line inside the chapter: \(text.errors)")
    }

    /// Phases report finished chapters only, so each is timed from the previous one's last step
    /// (or the export's start): its first line has the time the chapter took and an estimate.
    @Test func aPhaseIsTimedFromWhereThePreviousOneEnded() throws {
        let printer = ExportProgressPrinter()
        printer.begin()
        Thread.sleep(forTimeInterval: 1.2)
        let first = try #require(printer.line(for: ExportProgress(phase: "encode", done: 1, total: 4)))
        #expect(
            first.hasPrefix("export: encode chapter 1 of 4 (25%), 0:01 elapsed, about 0:0")
                && !first.hasSuffix("0:00 left"), "\(first)")
        #expect(
            printer.line(for: ExportProgress(phase: "encode", done: 4, total: 4))?.hasSuffix("(100%), 0:01 elapsed")
                == true)
        Thread.sleep(forTimeInterval: 1.2)
        let next = try #require(printer.line(for: ExportProgress(phase: "epub", done: 2, total: 4)))
        #expect(next == "export: epub chapter 2 of 4 (50%), 0:01 elapsed, about 0:01 left", "\(next)")
    }

    @Test func confidencesAreWrittenAsJSONEncoderWritesThem() throws {
        let values = (0...1000).map { Double($0) / 1000 } + [-1, 2.5, 1e-7, 123_456.789]
        let encoder = JSONEncoder()
        for value in values {
            var json = JSONWriter(escaping: ItemTimingsDocument.escaping)
            json.value(value)
            let written = json.bytes
            #expect(
                String(decoding: written, as: UTF8.self) == String(decoding: try encoder.encode(value), as: UTF8.self))
        }
    }

    @Test func timingsAudioAndCaptionsAgreeOnOneChapterTimeline() throws {
        let project = try Self.builtProject()
        let store = ObjectStore(root: project.output)
        let layouts = try TimelineBuilder(store: store, manifest: project.manifest(), settings: ExportSettings()).book()
            .chapters
        // The JSON writers give JSONEncoder's exact bytes (sorted keys), for chapter and item files.
        for timeline in try TimelineBuilder(store: store, manifest: project.manifest(), settings: ExportSettings())
            .timelines()
        {
            let chapterDocument = ChapterTimingsDocument(timeline, audioFormat: .wav)
            #expect(try chapterDocument.encodedLine() == (try chapterDocument.foundationEncodedLine()))
            for item in timeline.items {
                let document = ItemTimingsDocument(item, offsetMs: item.startMs)
                #expect(try document.encodedLine() == (try document.foundationEncodedLine()), "item \(item.record.id)")
            }
        }
        for stem in ["chapter-001", "chapter-002"] {
            let chapter = try chapterJSON(project, stem)
            let duration = try #require(chapter["durationMs"] as? Int)
            // The chapter audio is exactly as long as the timeline says.
            let audio = try SoundFile.decode(fileAt: project.output.appendingPathComponent("exports/audio/\(stem).wav"))
            #expect(abs(audio.durationMs - duration) <= 1)
            // Streamed item by item into its file, it is sample for sample the chapter rendered whole.
            let layout = try #require(layouts.first { $0.fileStem == stem })
            #expect(audio.samples == (try ChapterAudio.render(layout, store: store)))
            // Words are increasing, inside the chapter, and each item's file is its chapter entry shifted to zero.
            var previous = -1
            for item in try #require(chapter["items"] as? [[String: Any]]) {
                let start = try #require(item["startMs"] as? Int)
                let words = try #require(item["words"] as? [[String: Any]])
                for word in words {
                    let wordStart = try #require(word["startMs"] as? Int)
                    let wordEnd = try #require(word["endMs"] as? Int)
                    #expect(wordStart > previous && wordEnd > wordStart && wordEnd <= duration)
                    previous = wordStart
                }
                let id = try #require(item["id"] as? String)
                let own =
                    try JSONSerialization.jsonObject(
                        with: Data(contentsOf: project.output.appendingPathComponent("exports/json/items/\(id).json")))
                    as? [String: Any]
                let ownWords = try #require(own?["words"] as? [[String: Any]])
                #expect(
                    zip(ownWords, words).allSatisfy {
                        ($0["startMs"] as? Int ?? -1) + start == ($1["startMs"] as? Int ?? -2)
                    })
                // The words really are in the chapter audio where the JSON says: the item's own audio there.
            }
            for format in ["vtt", "srt"] {
                let text = try String(
                    contentsOf: project.output.appendingPathComponent("exports/captions/\(stem).\(format)"),
                    encoding: .utf8)
                if format == "vtt" { #expect(text.hasPrefix("WEBVTT\n\n")) }
                let cues = text.components(separatedBy: "\n\n").filter { $0.contains("-->") }
                #expect(!cues.isEmpty)
                var lastEnd = 0
                var twoLineCues = 0
                defer { #expect(twoLineCues > 0, "no cue was long enough for two lines") }
                for (index, cue) in cues.enumerated() {
                    let lines = cue.split(separator: "\n")
                    #expect(lines[0] == "\(index + 1)")
                    let times = lines[1].components(separatedBy: " --> ")
                    let start = milliseconds(Substring(times[0]))
                    let end = milliseconds(Substring(times[1]))
                    #expect(
                        start >= lastEnd && end > start && end <= duration, "\(format) cue \(index + 1): \(lines[1])")
                    #expect(lines[2...].joined(separator: " ").count <= 60 + 2, "a cue longer than maxCueCharacters")
                    // Subtitle lines: at most two, each within half of maxCueCharacters (60 here), unless one word is longer.
                    #expect(
                        lines.count <= 4 && lines[2...].allSatisfy { $0.count <= 30 + 2 || !$0.contains(" ") },
                        "\(format) cue \(index + 1): \(lines[2...])")
                    twoLineCues += lines.count == 4 ? 1 : 0
                    lastEnd = end
                }
            }
        }
    }

    @Test func theEPUBIsStructurallyValidWithMediaOverlays() throws {
        let project = try Self.builtProject()
        let folder = project.output.appendingPathComponent("exports/epub")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".epub") })
        let archive = try Archive(url: folder.appendingPathComponent(name), accessMode: .read)
        let entries = Array(archive)
        func read(_ path: String) throws -> Data {
            let entry = try #require(archive[path], "missing \(path)")
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            return data
        }
        // Written from files encoded beside it, which are gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [name])
        // OCF: mimetype first, stored, exact content.
        #expect(entries.first?.path == "mimetype")
        #expect(entries.first?.compressedSize == entries.first?.uncompressedSize)
        #expect(String(decoding: try read("mimetype"), as: UTF8.self) == "application/epub+zip")
        let container = XMLElements(try read("META-INF/container.xml"))
        let opfPath = try #require(container.named("rootfile").first?["full-path"])
        let opf = XMLElements(try read(opfPath))
        let base = (opfPath as NSString).deletingLastPathComponent
        let manifest = opf.named("item")
        let hrefs = Set(manifest.compactMap { $0["href"] }.map { base + "/" + $0 })
        // Every file is in the manifest and every manifest entry is a file.
        let files = Set(entries.map(\.path)).subtracting(["mimetype", "META-INF/container.xml", opfPath])
        #expect(files == hrefs)
        #expect(manifest.contains { $0["properties"] == "nav" })
        let metas = opf.named("meta")
        #expect(metas.contains { $0["property"] == "media:active-class" })
        let overlays = manifest.filter { $0["media-type"] == "application/smil+xml" }
        #expect(overlays.count == 2)
        for overlay in overlays {
            #expect(
                metas.contains { $0["property"] == "media:duration" && $0["refines"] == "#" + (overlay["id"] ?? "") })
            #expect(manifest.contains { $0["media-overlay"] == overlay["id"] })
            // SMIL: clips increasing, inside the audio, pointing at ids that exist in the content document.
            let smilPath = base + "/" + (overlay["href"] ?? "")
            let smil = XMLElements(try read(smilPath))
            let texts = smil.named("text").compactMap { $0["src"] }
            let clips = smil.named("audio")
            #expect(!clips.isEmpty && texts.count == clips.count)
            let documentPath =
                base + "/text/" + (texts[0].split(separator: "#")[0].split(separator: "/").last.map(String.init) ?? "")
            let documentIDs = Set(XMLElements(try read(documentPath)).elements.compactMap { $0.attributes["id"] })
            #expect(texts.allSatisfy { documentIDs.contains(String($0.split(separator: "#")[1])) })
            let audioPath = base + "/audio/" + (clips[0]["src"]?.split(separator: "/").last.map(String.init) ?? "")
            let audioBytes = try read(audioPath)
            // AAC in MP4 (the M4B's chapter encodings), an EPUB 3 core media type.
            #expect(
                audioPath.hasSuffix(".m4a")
                    && manifest.contains {
                        $0["href"].map { base + "/" + $0 } == audioPath && $0["media-type"] == "audio/mp4"
                    })
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
                "forge-epub-\(UUID().uuidString).m4a")
            try audioBytes.write(to: temporary)
            defer { try? FileManager.default.removeItem(at: temporary) }
            let probe = try AudiobookTests.run(
                try #require(AudiobookTests.ffprobe).path,
                ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", temporary.path])
            let audioMs = Int((Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) * 1000)
            var lastEnd = 0
            for clip in clips {
                let begin = milliseconds(Substring(try #require(clip["clipBegin"])))
                let end = milliseconds(Substring(try #require(clip["clipEnd"])))
                #expect(begin >= lastEnd && end > begin && end <= audioMs + 60)
                lastEnd = end
            }
        }
    }

    /// For apps: every item's chapter-timeline place, its sentences and (through the view
    /// `chapter_words`) every word's chapter time are in the manifest, equal to what the JSON export
    /// says; `item` events give each item's own length.
    @Test func theManifestHoldsChapterTimesAndSentencesAsTheExportsLayThemOut() throws {
        let project = try TestProject(recipe: Fixtures.recipe(extra: #""exports": ["json"]"#))
        let build = try project.build()
        #expect(build.status == 0, "\(build.errors)")
        try compareTimeline(project, build)
        // An edit moves the items after it: the manifest follows the new layout.
        try project.write(
            book: Fixtures.shortBook.replacingOccurrences(
                of: "Mr. Bennet replied that he had not.",
                with: "Mr. Bennet replied, after a long and thoughtful pause, that he had not."))
        let edited = try project.build()
        #expect(edited.status == 0 && edited.synthesizedItems.count == 1)
        try compareTimeline(project, edited)
    }

    func compareTimeline(_ project: TestProject, _ build: ForgeResult) throws {
        let database = try DatabaseQueue(path: project.output.appendingPathComponent(Manifest.fileName).path)
        var compared = 0
        for stem in ["chapter-001", "chapter-002"] {
            let chapter = try chapterJSON(project, stem)
            for item in chapter["items"] as? [[String: Any]] ?? [] {
                let id = try #require(item["id"] as? String)
                let row = try database.read { db in
                    try Row.fetchOne(
                        db, sql: "SELECT chapter_start_ms, chapter_end_ms, duration_ms FROM items WHERE id = ?",
                        arguments: [id])
                }
                #expect(row?[0] as Int? == item["startMs"] as? Int && row?[1] as Int? == item["endMs"] as? Int, "\(id)")
                let sentences = try database.read { db in
                    try Row.fetchAll(
                        db,
                        sql:
                            "SELECT text, chapter_start_ms, chapter_end_ms, word_start, word_end FROM sentences WHERE item_id = ? ORDER BY idx",
                        arguments: [id])
                }
                let expected = item["sentences"] as? [[String: Any]] ?? []
                #expect(sentences.count == expected.count && !expected.isEmpty)
                for (stored, exported) in zip(sentences, expected) {
                    #expect(stored[0] as String == exported["text"] as? String)
                    #expect(
                        stored[1] as Int == exported["startMs"] as? Int && stored[2] as Int == exported["endMs"] as? Int
                    )
                    #expect(
                        stored[3] as Int == exported["firstWord"] as? Int
                            && (stored[4] as Int) - 1 == exported["lastWord"] as? Int)
                }
                let words = try database.read { db in
                    try Row.fetchAll(
                        db,
                        sql:
                            "SELECT text, chapter_start_ms, chapter_end_ms FROM chapter_words WHERE item_id = ? ORDER BY idx",
                        arguments: [id])
                }
                let exportedWords = item["words"] as? [[String: Any]] ?? []
                #expect(words.map { $0[1] as Int } == exportedWords.compactMap { $0["startMs"] as? Int })
                compared += 1
                if let event = build.events("item").first(where: { $0["id"] as? String == id }) {
                    #expect(event["durationMs"] as? Int == row?[2] as Int?, "an item event gives the item's own length")
                }
            }
        }
        #expect(compared == Self.itemCount(project))
    }

    static func itemCount(_ project: TestProject) -> Int { (try? project.manifest().items().count) ?? -1 }

    /// An item rebuilt under the same key with other bytes (after `fsck --repair`; espeak-ng's output
    /// depends on what its process spoke before) makes the exports stale: the stamp follows the bytes.
    @Test func theExportStampFollowsTheAudiosBytesNotOnlyItsKey() throws {
        let project = try Self.builtProject()
        let manifest = try project.manifest()
        let exporter = Exporter(outputDirectory: project.output, settings: ExportSettings(formats: [.json]))
        let before = try exporter.stamp(manifest)
        #expect(try exporter.stamp(manifest) == before)
        let key = try #require(try manifest.items().first?.audioKey)
        let writable = try Manifest(directory: project.output)
        try writable.write { db in
            try db.execute(sql: "UPDATE objects SET sha256 = 'other' WHERE key = ?", arguments: [key])
        }
        #expect(try exporter.stamp(writable) != before)
    }

    @Test func rebuildingWithoutChangesNeitherRealignsNorReexports() throws {
        let project = try Self.builtProject()
        let again = try project.build()
        #expect(again.events("summary").first?["exported"] as? Int == 0)
        #expect(again.events("item").isEmpty)
        // Nothing changed: answered from the build's fingerprint, without even splitting.
        #expect(again.events("split").isEmpty && again.summary?["nothingToDo"] as? Bool == true)
        // Exports removed behind its back: the fingerprint no longer matches; they are written again.
        try FileManager.default.removeItem(at: project.output.appendingPathComponent("exports"))
        let restored = try project.build()
        #expect(restored.events("split").count == 1 && (restored.summary?["exported"] as? Int ?? 0) > 0)
        #expect(
            FileManager.default.fileExists(
                atPath: project.output.appendingPathComponent("exports/json/chapter-001.json").path))
        // An edited source is split again, and only the edited item made.
        try project.write(book: Fixtures.shortBook.replacingOccurrences(of: "a single man", with: "one single man"))
        let edited = try project.build()
        #expect(edited.events("split").count == 1 && edited.synthesizedItems.count == 1)
        // New pauses: the same items, exported again.
        try project.write(
            recipe: Fixtures.recipe(extra: #""exports": { "formats": ["json"], "pauses": { "paragraphMs": 100 } }"#))
        let changed = try project.build()
        #expect((changed.events("summary").first?["exported"] as? Int ?? 0) > 0)
        #expect(changed.events("item").isEmpty)
    }

    /// A book shortened to one chapter keeps no exports of the chapter and items it lost, while
    /// a file of the user's and an earlier export's other kind (SRT beside VTT) stay.
    @Test func aShortenedBookKeepsNoExportsOfWhatItLost() throws {
        let project = try TestProject(
            recipe: Fixtures.recipe(extra: #""exports": { "formats": ["audio", "json", "vtt"] }"#))
        #expect(try project.build().status == 0)
        let exports = project.output.appendingPathComponent("exports")
        func names(_ folder: String) throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent(folder).path))
        }
        #expect(try names("json").contains("chapter-002.json") && names("audio").contains("chapter-002.wav"))
        let itemsBefore = try names("json/items").count
        try Data("mine".utf8).write(to: exports.appendingPathComponent("json/notes.txt"))
        try Data("1\n".utf8).write(to: exports.appendingPathComponent("captions/chapter-002.srt"))
        try project.write(book: Fixtures.shortBook.components(separatedBy: "Chapter 2")[0])
        let rebuilt = try project.build()
        #expect(rebuilt.status == 0, "\(rebuilt.errors)")
        #expect(try names("json") == ["chapter-001.json", "items", "notes.txt"])
        #expect(try names("audio") == ["chapter-001.wav"])
        #expect(try names("captions") == ["chapter-001.vtt", "chapter-002.srt"])
        let items = try names("json/items")
        #expect(items.count < itemsBefore && items.allSatisfy { $0.hasSuffix(".json") })
        let chapter = try chapterJSON(project, "chapter-001")
        let ids = Set((chapter["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(items == Set(ids.map { $0 + ".json" }), "item files are exactly the book's items")
    }

    @Test func exportingAnUnfinishedBuildExplainsWhatToDo() throws {
        let project = try TestProject()
        #expect(try project.forge(["split", "recipe.json", "--json"]).status == 0)
        let result = try project.forge(["export", "out", "--format", "json"])
        #expect(result.status == 3)
        #expect(result.errors.contains("forge build"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: project.output.appendingPathComponent("exports/json").path))
        let bad = try project.forge(["export", "out", "--format", "pdf"])
        #expect(bad.status == 2 && bad.errors.contains("pdf"))
    }

    /// The read-along page in a real browser: after a seek, the highlighted word is the one whose
    /// time range holds the audio's current time.
    @Test(.enabled(if: ExportTests.chromium != nil, "headless Chromium is not installed (apt-get install chromium)"))
    func theReadAlongPageHighlightsTheWordBeingSpoken() throws {
        let project = try Self.builtProject()
        let chapter = try chapterJSON(project, "chapter-001")
        let words = (chapter["items"] as? [[String: Any]] ?? []).flatMap { $0["words"] as? [[String: Any]] ?? [] }
        let page = project.output.appendingPathComponent("exports/html/chapter-001.html")
        for target in [words[3], words[words.count / 2], words[words.count - 2]] {
            let start = target["startMs"] as? Int ?? 0
            let end = target["endMs"] as? Int ?? 0
            let seconds = Double(start + end) / 2000
            let process = Process()
            process.executableURL = ExportTests.chromium
            process.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--mute-audio", "--virtual-time-budget=4000",
                "--window-size=800,300", "--dump-dom",
                page.absoluteString + "#t=\(seconds)",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let active = dom.components(separatedBy: "<span class=\"w active\" ").dropFirst().first
            let attributes = try #require(active, "no word highlighted at \(seconds) s").prefix(60)
            #expect(
                attributes.hasPrefix("data-start=\"\(start)\" data-end=\"\(end)\""), "at \(seconds) s: \(attributes)")
            // A deep link brings its word into view: the page scrolled (the last words are far below the fold).
            let scrolled = dom.firstMatch(of: /data-scroll-y="([0-9]+)"/).map { Int($0.1) ?? 0 } ?? 0
            if target["startMs"] as? Int == words[words.count - 2]["startMs"] as? Int {
                #expect(scrolled > 100, "not scrolled to the word at \(seconds) s")
            }
        }
    }

    /// The read-along pages as a reader uses them: a contents page, the book's title and links to the
    /// chapters around each page, speakers' names set apart from what they say, announcements styled
    /// as directions, and verse kept as lines.
    @Test func theReadAlongPagesAreNavigableAndKeepSpeakersAndLines() throws {
        let project = try TestProject(recipe: Fixtures.recipe(extra: #""title": "Two Chapters", "exports": ["html"]"#))
        #expect(try project.build().status == 0)
        let html = project.output.appendingPathComponent("exports/html")
        let index = try String(contentsOf: html.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(
            index.contains("<h1>Two Chapters</h1>") && index.contains("href=\"chapter-001.html\">Chapter 1<")
                && index.contains("href=\"chapter-002.html\">Chapter 2<"))
        let first = try String(contentsOf: html.appendingPathComponent("chapter-001.html"), encoding: .utf8)
        let second = try String(contentsOf: html.appendingPathComponent("chapter-002.html"), encoding: .utf8)
        #expect(
            first.contains("Two Chapters") && first.contains("href=\"index.html\" rel=\"contents\"")
                && first.contains("href=\"chapter-002.html\" rel=\"next\""))
        #expect(
            !first.contains("rel=\"prev\"") && second.contains("href=\"chapter-001.html\" rel=\"prev\"")
                && !second.contains("rel=\"next\""))
        #expect(first.contains("hashchange"), "a changed #t= seeks too")

        let play = try TestProject(
            recipe: Fixtures.recipe(source: "play.script", extra: #""exports": ["html"]"#)
                .replacingOccurrences(
                    of: #""split": { "unit": "paragraph","#,
                    with: #""split": { "unit": "paragraph", "announceCharacters": "always","#))
        try play.directory.write("play.script", "HAMLET: To be, or not to be.\nOPHELIA: Good my lord.\n")
        #expect(try play.build().status == 0)
        let scene = try String(
            contentsOf: play.output.appendingPathComponent("exports/html/chapter-001.html"), encoding: .utf8)
        #expect(scene.contains("class=\"speaker\" aria-hidden=\"true\">HAMLET</span>"), "\(scene.prefix(3000))")
        #expect(scene.contains("class=\"announcement\""))

        let poem = try TestProject(
            book: "The Tyger\n\nTyger Tyger, burning bright,\nIn the forests of the night;\n",
            recipe: Fixtures.recipe(
                extra: #""exports": ["html"]"#
            ).replacingOccurrences(of: #""unit": "paragraph""#, with: #""unit": "line""#))
        #expect(try poem.build().status == 0)
        let verse = try String(
            contentsOf: poem.output.appendingPathComponent("exports/html/chapter-001.html"), encoding: .utf8)
        let lines = verse.components(separatedBy: "\n").filter { $0.hasPrefix("<p ") }
        #expect(
            lines.count == 3 && lines[1].contains("bright") && lines[2].contains("forests"),
            "verse lines are kept: \(lines)")
    }

    static let chromium: URL? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
}
