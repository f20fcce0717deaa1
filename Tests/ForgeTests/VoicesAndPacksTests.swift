import Foundation
import GRDB
import Synchronization
import Testing
import ZIPFoundation

@testable import Forge

/// Voice URIs, `forge voices`, and audio packs.
@Suite struct VoicesAndPacksTests {
    @Test func voiceURIsAreAcceptedWhereverTheRecipeNamesAVoice() throws {
        let directory = try TemporaryDirectory("voice-uri")
        try directory.write("book.txt", "Hello.")
        let file = directory.file("recipe.json")
        func load(_ voice: String) throws -> Recipe {
            try Data(#"{"sources": ["book.txt"], "voice": \#(voice)}"#.utf8).write(to: file)
            return try RecipeLoader().load(from: file)
        }
        let uri = try load(#""espeak-ng:en-us+klatt?rate=170&pitch=45""#).voice
        #expect(uri == VoiceSettings(engine: "espeak-ng", id: "en-us+klatt", rate: 170, pitch: 45, volume: 100))
        #expect(
            uri.uri == "espeak-ng:en-us+klatt?rate=170&pitch=45&volume=100",
            "the recorded URI reads back as the same voice")
        #expect(try VoiceURI.parse(uri.uri) == uri)
        #expect(
            try load(#""en-gb?rate=190""#).voice == VoiceSettings(id: "en-gb", rate: 190),
            "a bare name is a voice of the default engine")
        let inObject = try load(#"{"id": "espeak-ng:en-gb?rate=200", "pitch": 30}"#).voice
        #expect(inObject.id == "en-gb" && inObject.rate == 200 && inObject.pitch == 30)
        for (voice, reason) in [
            (#""piper:en_US-joe""#, "not one Forge runs"),
            (#""espeak-ng:""#, "names no voice"),
            (#""espeak-ng:en-us?speed=3""#, "not a voice parameter"),
            (#""espeak-ng:en-us?rate=999""#, "outside 80–450"),
            (#""espeak-ng:en-us?rate=170&rate=180""#, "given twice"),
            (#""espeak-ng:en-us?rate=fast""#, "not name=integer"),
        ] {
            do {
                _ = try load(voice)
                Issue.record("accepted \(voice)")
            } catch let error as RecipeError {
                #expect(error.path == "voice")
                #expect(error.localizedDescription.contains(reason), "\(error.localizedDescription)")
            }
        }
    }

    @Test func forgeVoicesListsWhatIsInstalled() throws {
        let directory = try TemporaryDirectory("voices")
        let result = try ForgeProcess.run(["voices", "--language", "en", "--json"], in: directory.url)
        #expect(result.status == 0, "\(result.errors)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        let voices = try #require(listing["voices"] as? [[String: Any]])
        let uris = voices.compactMap { $0["uri"] as? String }
        #expect(uris.contains("espeak-ng:en-us") && uris.contains("espeak-ng:en-gb"))
        #expect(
            voices.allSatisfy { ($0["languages"] as? [String])?.contains { $0 == "en" || $0.hasPrefix("en-") } == true }
        )
        #expect((listing["variants"] as? [[String: Any]])?.contains { $0["id"] as? String == "+klatt" } == true)
        // Every voice listed, in every language, is one a recipe can use.
        let engine = try EspeakEngine()
        let all = engine.installedVoices()
        #expect(all.count > 50)
        for voice in all { #expect(engine.hasVoice(voice.id), "\(voice.uri)") }
        let table = try ForgeProcess.run(["voices"], in: directory.url)
        #expect(table.text.contains("espeak-ng:de "))
        #expect(try ForgeProcess.run(["voices", "--language", "xx"], in: directory.url).status == 2)
        #expect(try ForgeProcess.run(["voices", "--engine", "piper"], in: directory.url).status == 2)
    }

    @Test func anAudioPackHoldsEveryItemsAudioTimingsAnIndexAndTheManifest() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        let pack = project.directory.file("pack.zip")
        let result = try project.forge(["export", "out", "--pack", "pack.zip", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            !FileManager.default.fileExists(atPath: project.output.appendingPathComponent("exports").path),
            "--pack alone writes only the pack")
        let archive = try Archive(url: pack, accessMode: .read)
        func data(_ path: String) throws -> Data {
            let entry = try #require(archive[path], "\(path) is in the pack")
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            return data
        }
        let index = try #require(try JSONSerialization.jsonObject(with: data("index.json")) as? [String: Any])
        let entries = try #require(index["items"] as? [[String: Any]])
        let manifest = try project.manifest()
        let items = try manifest.items()
        #expect(entries.count == items.count)
        #expect(entries.map { $0["id"] as? String } == items.map(\.id))
        // Named by chapter and position in the chapter: the second chapter starts again at 0001.
        var positions: [Int: Int] = [:]
        let expectedNames = items.map { item -> String in
            positions[item.chapter, default: 0] += 1
            return String(format: "chapter-%03d/%04d", item.chapter, positions[item.chapter]!)
        }
        #expect(Set(items.map(\.chapter)).count == 2)
        #expect(entries.map { $0["name"] as? String } == expectedNames)
        #expect(Set(entries.compactMap { $0["name"] as? String }).count == items.count)
        let store = ObjectStore(root: project.output)
        let objects = try manifest.objects(withKeys: items.compactMap(\.audioKey))
        for (entry, item) in zip(entries, items) {
            let audioPath = try #require(entry["audio"] as? String)
            let objectPath = try #require(objects[item.audioKey!]?.path)
            #expect(
                try data(audioPath) == (try store.read(relativePath: objectPath)),
                "\(item.id): the item's own audio object")
            let timingsPath = try #require(entry["timings"] as? String)
            let timings = try #require(try JSONSerialization.jsonObject(with: data(timingsPath)) as? [String: Any])
            let words = try #require(timings["words"] as? [[String: Any]])
            #expect(words.map { $0["text"] as? String } == (try manifest.words(of: item.id)).map(\.text))
            #expect((timings["startMs"] as? Int) == 0, "timings are relative to the item's audio")
        }
        // The manifest in the pack is a working SQLite copy.
        let copy = project.directory.file("copy.sqlite")
        try data(Manifest.fileName).write(to: copy)
        let count = try DatabaseQueue(path: copy.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM items") }
        #expect(count == items.count)
    }

    /// libzip gives the pack's writing thread OpenSSL state that is freed as the thread ends; the
    /// process must not free OpenSSL's own state at exit meanwhile (a rare crash after "Wrote
    /// the audio pack"). Watched with gdb, which stops the process if OpenSSL's exit handler
    /// runs. (Started as Forge starts its tools: from a test thread's Foundation `Process`, gdb
    /// inherits a mask that blocks the signals it waits on.)
    @Test func aPackCommandExitsWithoutTearingDownOpenSSL() async throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        let lines = Mutex<[String]>([])
        let gdb = try await ChildProcess.start(
            executable: "/usr/bin/gdb",
            arguments: [
                "--readnever", "-nx", "-batch", "-ex", "set breakpoint pending on", "-ex", "break OPENSSL_cleanup",
                "-ex", "run", "--args", ForgeProcess.executable.path, "export", project.output.path, "--pack",
                project.directory.file("pack.zip").path,
            ], errorOutput: .keep(label: "gdb"),
            onLine: { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } })
        await gdb.finishInput()
        let termination = await gdb.exited()
        let text = lines.withLock { $0.joined(separator: "\n") }
        #expect(termination.succeeded, "\(termination): \(gdb.errorTail() ?? "")")
        #expect(text.contains("Wrote the audio pack"), "\(text)")
        #expect(text.contains("exited normally"), "\(text)")
        #expect(!text.contains("hit Breakpoint"), "OpenSSL's exit handler ran: \(text)")
    }
}
