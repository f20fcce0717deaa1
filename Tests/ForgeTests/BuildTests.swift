import Foundation
import Testing

@testable import Forge

/// Real `forge` processes with real espeak-ng and SQLite, in temp directories.
@Suite("forge build", .serialized)
struct BuildTests {
    @Test func buildsEveryItemThenHasNothingToDo() throws {
        let project = try TestProject()
        let first = try project.build()
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.summary?["synthesized"] as? Int == 7)
        #expect(first.summary?["failed"] as? Int == 0)
        #expect(try project.doneItems().count == 7)
        try project.checkConsistency()
        #expect(project.temporaryFiles().isEmpty)

        let again = try project.build()
        #expect(again.status == 0)
        #expect(again.summary?["nothingToDo"] as? Bool == true)
        #expect(again.synthesizedItems.isEmpty)

        let status = try project.forge(["status", "out", "--json"])
        let fields = try JSONSerialization.jsonObject(with: Data(status.text.utf8)) as? [String: Any]
        #expect(fields?["done"] as? Int == 7)
        #expect(fields?["pending"] as? Int == 0)
        #expect((fields?["audioMs"] as? Int ?? 0) > 10_000)
        #expect(fields?["objects"] as? Int == 14)
        let lastBuild = fields?["lastBuild"] as? [String: Any]
        #expect(lastBuild?["outcome"] as? String == "succeeded")
        #expect(lastBuild?["engine"] as? String == "espeak-ng")
    }

    @Test func humanOutputWithoutJSON() throws {
        let project = try TestProject()
        // Not a terminal, so JSON Lines are printed anyway: CI logs stay machine-readable.
        let result = try project.forge(["build", "recipe.json"])
        #expect(result.status == 0)
        #expect(result.summary != nil)
        let plan = try project.forge(["plan", "recipe.json"])
        #expect(plan.status == 0)
        #expect(plan.text.contains("2 chapters, 7 items"))
        #expect(plan.text.contains("exact"))
        let status = try project.forge(["status", "out"])
        #expect(status.text.contains("7 done, 0 spoken (not aligned), 0 failed, 0 pending"))
    }

    @Test func planEstimatesBeforeAnyAudioAndWritesNothing() throws {
        let project = try TestProject()
        let plan = try project.forge(["plan", "recipe.json", "--json"])
        #expect(plan.status == 0)
        let fields = try JSONSerialization.jsonObject(with: Data(plan.text.utf8)) as? [String: Any]
        #expect(fields?["items"] as? Int == 7)
        #expect(fields?["exact"] as? Bool == false)
        #expect(fields?["itemsToSynthesize"] as? Int == 7)
        let estimate = fields?["durationMs"] as? Int ?? 0
        #expect(!FileManager.default.fileExists(atPath: project.output.path))
        _ = try project.build()
        let after =
            try JSONSerialization.jsonObject(
                with: Data(try project.forge(["plan", "recipe.json", "--json"]).text.utf8)) as? [String: Any]
        #expect(after?["exact"] as? Bool == true)
        let exact = after?["durationMs"] as? Int ?? 0
        #expect(exact == (try project.manifest().statusCounts().audioMs))
        #expect(abs(Double(estimate - exact)) < Double(exact) * 0.35, "estimate \(estimate) ms vs \(exact) ms")
    }

    @Test func editingOneParagraphRebuildsOnlyThatItem() throws {
        let project = try TestProject()
        _ = try project.build()
        let before = try project.doneItems()
        try project.write(
            book: Fixtures.shortBook.replacingOccurrences(
                of: "Mr. Bennet replied that he had not.", with: "Mr. Bennet replied that he had not yet."))
        let result = try project.build()
        #expect(result.status == 0)
        #expect(result.synthesizedItems.count == 1)
        let after = try project.doneItems()
        #expect(after.count == 7)
        #expect(before.subtracting(after).count == 1)
        #expect(after.subtracting(before) == result.synthesizedItems)
        try Self.expectRecordedFramesMatchTheAudio(project)
        // A manifest from before lengths were recorded (schema v13) gets them from the headers at the
        // next layout, and the layout is the same as the headers give.
        try Manifest(directory: project.output).database.write {
            try $0.execute(sql: "UPDATE objects SET frames = NULL")
        }
        try project.write(book: Fixtures.shortBook)
        #expect(try project.build().status == 0)
        try Self.expectRecordedFramesMatchTheAudio(project)
        let manifest = try Manifest(directory: project.output)
        let stored = try manifest.placements()
        try manifest.database.write { try $0.execute(sql: "UPDATE objects SET frames = NULL") }
        let fromHeaders = try TimelineBuilder(
            store: ObjectStore(root: project.output), manifest: manifest, settings: ExportSettings()
        ).layout()
        #expect(fromHeaders.measured.count == 7)
        for item in fromHeaders.book.chapters.flatMap(\.items) {
            #expect(
                stored[item.record.id]?.start == item.startMs && stored[item.record.id]?.end == item.endMs,
                "\(item.record.id)")
        }
    }

    /// Every item's audio object has a recorded length, the length its file decodes to.
    static func expectRecordedFramesMatchTheAudio(_ project: TestProject) throws {
        let store = ObjectStore(root: project.output)
        let manifest = try project.manifest()
        let audio = try manifest.objects(withKeys: manifest.items().compactMap(\.audioKey)).values
        #expect(!audio.isEmpty)
        for object in audio {
            #expect(object.frames == (try store.audioHeader(relativePath: object.path).frames), "\(object.path)")
        }
    }

    @Test func changingTheRateRebuildsAllAndChangingItBackReusesTheFirstObjects() throws {
        let project = try TestProject()
        _ = try project.build()
        let firstKeys = Set(try project.manifest().items().compactMap(\.audioKey))
        try project.write(recipe: Fixtures.recipe(rate: 200))
        let faster = try project.build()
        #expect(faster.synthesizedItems.count == 7)
        #expect(Set(try project.manifest().items().compactMap(\.audioKey)).isDisjoint(with: firstKeys))
        try project.write(recipe: Fixtures.recipe(rate: 175))
        let back = try project.build()
        #expect(back.status == 0)
        #expect(back.synthesizedItems.isEmpty)
        #expect(back.summary?["reused"] as? Int == 7)
        #expect(Set(try project.manifest().items().compactMap(\.audioKey)) == firstKeys)
        try project.checkConsistency()
    }

    @Test func identicalTextIsSynthesizedOnce() throws {
        let project = try TestProject(book: "Chapter 1\n\nYes.\n\nNo.\n\nYes.\n\nNo.")
        let result = try project.build()
        #expect(result.status == 0)
        #expect(result.synthesizedItems.count == 3)
        #expect(result.summary?["reused"] as? Int == 2)
        let items = try project.manifest().items()
        #expect(items[1].audioKey == items[3].audioKey)
    }

    @Test func aFailingItemIsRecordedTheRestCompleteAndARerunRetriesIt() throws {
        let project = try TestProject()
        let failed = try project.build(environment: ["FORGE_FAULT_SPEAK": "Netherfield"])
        #expect(failed.status == 1)
        #expect(failed.summary?["failed"] as? Int == 1)
        let items = try project.manifest().items()
        let failures = items.filter { $0.status == .failed }
        #expect(failures.count == 1)
        #expect(failures.first?.text.contains("Netherfield") == true)
        #expect(failures.first?.error?.contains("FORGE_FAULT_SPEAK") == true)
        #expect(items.filter { $0.status == .done }.count == 6)
        let status = try project.forge(["status", "out"])
        #expect(status.text.contains("failed: \(failures[0].id)"))

        let retry = try project.build()
        #expect(retry.status == 0)
        #expect(retry.synthesizedItems == [failures[0].id])
        #expect(try project.doneItems().count == 7)
    }

    @Test(arguments: ["flac", "ogg", "mp3"])
    func otherAudioFormats(format: String) throws {
        let project = try TestProject(
            book: "Chapter 1\n\nA short line to encode.", recipe: Fixtures.recipe(format: format, jobs: 1))
        let result = try project.build()
        #expect(result.status == 0, "\(result.errors)")
        let item = try #require(try project.manifest().items().last)
        let object = try #require(try project.manifest().objects(withKeys: [item.audioKey ?? ""]).values.first)
        #expect(object.path.hasSuffix(".\(format)"))
        let head = [UInt8](try Data(contentsOf: project.output.appendingPathComponent(object.path)).prefix(4))
        switch format {
        case "flac": #expect(head == Array("fLaC".utf8))
        case "ogg": #expect(head == Array("OggS".utf8))
        default: #expect(head.starts(with: Array("ID3".utf8)) || (head.first == 0xFF && (head[1] & 0xE0) == 0xE0))
        }
        #expect((item.durationMs ?? 0) > 500)
        // Lossy audio's length is read from its header once the chapter is laid out, and recorded.
        try Self.expectRecordedFramesMatchTheAudio(project)
    }

    @Test func stageCommandsRunOneStageEach() throws {
        let project = try TestProject()
        let speakFirst = try project.forge(["speak", "recipe.json", "--json"])
        #expect(speakFirst.status == 3)
        #expect(speakFirst.errors.contains("Run `forge split <recipe>`"))

        #expect(try project.forge(["split", "recipe.json", "--json"]).status == 0)
        var counts = try project.manifest().statusCounts()
        #expect(counts.pending == 7 && counts.words > 50)

        let speak = try project.forge(["speak", "recipe.json", "--json"])
        #expect(speak.status == 0)
        #expect(speak.synthesizedItems.count == 7)
        counts = try project.manifest().statusCounts()
        #expect(counts.spoken == 7)

        let align = try project.forge(["align", "recipe.json", "--json"])
        #expect(align.status == 0)
        #expect(align.summary?["aligned"] as? Int == 7)
        #expect(align.synthesizedItems.isEmpty)
        counts = try project.manifest().statusCounts()
        #expect(counts.done == 7)
        try project.checkConsistency()
        #expect(try project.build().summary?["nothingToDo"] as? Bool == true)
    }
}

@Suite("Worker crashes", .serialized)
struct WorkerCrashTests {
    @Test func aWorkerThatDiesFailsOnlyTheItemItWasSpeaking() throws {
        let project = try TestProject(recipe: Fixtures.recipe(jobs: 1))
        let crashed = try project.build(environment: ["FORGE_FAULT_CRASH": "Netherfield"])
        #expect(crashed.status == 1, "\(crashed.errors)")
        let items = try project.manifest().items()
        let failures = items.filter { $0.status == .failed }
        #expect(failures.count == 1)
        #expect(failures.first?.text.contains("Netherfield") == true)
        #expect(failures.first?.error?.contains("worker process died") == true)
        #expect(items.filter { $0.status == .done }.count == 6, "the other items it held were retried by a new worker")
        let retry = try project.build()
        #expect(retry.status == 0)
        #expect(retry.synthesizedItems == [failures[0].id])
    }
}
