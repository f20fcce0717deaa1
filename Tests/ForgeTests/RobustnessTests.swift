import Foundation
import Testing

@testable import Forge

/// Forge never loses or corrupts a build: kills, damaged stores, lost manifests, full disks, hostile input.
@Suite("Crash safety and integrity", .serialized)
struct RobustnessTests {
    /// Twenty kills at points the build reached — just started, or one to three items into the
    /// run — not after a clock, so a fast machine cannot finish first and a slow one still gets them all.
    @Test func twentyKillsNeverCorruptAndARerunFinishes() throws {
        let project = try TestProject(book: Fixtures.longerText, recipe: Fixtures.recipe(jobs: 2))
        var kills = 0
        var attempts = 0
        var finishedBefore = Set<String>()
        while kills < 20 && attempts < 40 {
            attempts += 1
            let forge = try project.start()
            let items = attempts % 4
            if items == 0 {
                forge.waitForLines(count: 1) { $0.contains(#""event":"started""#) }
            } else {
                forge.waitForLines(count: items) { $0.contains(#""event":"item""#) }
            }
            guard forge.process.isRunning else { break }
            forge.signalWithWorkers(SIGKILL)
            let killed = forge.wait()
            kills += 1
            #expect(
                killed.synthesizedItems.isDisjoint(with: finishedBefore),
                "kill \(kills): a finished item was synthesized again")
            // Killed while still reading the sources: nothing written yet is the consistent state.
            guard FileManager.default.fileExists(atPath: project.output.appendingPathComponent(Manifest.fileName).path)
            else {
                #expect(finishedBefore.isEmpty, "kill \(kills): the manifest of a started build disappeared")
                continue
            }
            try project.checkConsistency()
            finishedBefore = try project.doneItems()
        }
        #expect(kills == 20, "the build finished before 20 kills; the test proves less than it says")
        let rerun = try project.build()
        #expect(rerun.status == 0, "\(rerun.errors)")
        #expect(rerun.synthesizedItems.isDisjoint(with: finishedBefore))
        #expect(try project.manifest().items().allSatisfy { $0.status == .done })
        #expect(project.temporaryFiles().isEmpty)
        let fsck = try project.forge(["fsck", "out"])
        #expect(fsck.status == 0, "\(fsck.text)")
    }

    /// A book's first split writes its items and words for seconds: a stop during it rolls the
    /// whole write back (nothing half-recorded) instead of making Ctrl-C wait for it.
    @Test func aStopDuringTheSplitsManifestWriteLeavesTheManifestAsItWas() throws {
        let directory = try TemporaryDirectory()
        let manifest = try Manifest(directory: directory.url)
        let split = Splitter(settings: SplitSettings()).split([("book.txt", .text, Fixtures.shortBook)])
        let stopped = CancellationFlag()
        stopped.cancel()
        #expect(try manifest.synchronize(with: split, cancellation: stopped) == nil)
        #expect(try manifest.items().isEmpty && manifest.chapters().isEmpty)
        #expect(try manifest.synchronize(with: split, cancellation: CancellationFlag()) == split.items.count)
        #expect(try manifest.items().count == split.items.count)
    }

    @Test func aNewManifestAppearsWholeAndLeftoversOfAKilledCreationAreCleared() throws {
        let directory = try TemporaryDirectory("manifest")
        // What a process killed while creating a manifest leaves: its half-made temporary database.
        let leftover = directory.file(".\(Manifest.fileName).99999.tmp")
        try Data("half a database".utf8).write(to: leftover)
        _ = try Manifest(directory: directory.url)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.hasPrefix(".\(Manifest.fileName)") }, "\(names)")
        // A reader (create: false) finds the tables at once.
        #expect(try Manifest(directory: directory.url, create: false).items().isEmpty)
    }

    @Test func fsckFindsDamageAndRepairLetsTheNextBuildRestoreIt() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        #expect(try project.forge(["fsck", "out"]).status == 0)

        let items = try project.manifest().items().filter { $0.kind == "paragraph" }
        let objects = try project.manifest().objects(withKeys: items.compactMap(\.audioKey))
        let corrupted = items[0]
        let deleted = items[1]
        let symlinked = items[2]
        let path = { (item: ItemRecord) in project.output.appendingPathComponent(objects[item.audioKey!]!.path).path }
        // Flip one byte in the middle of an audio object.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path(corrupted)))
        try handle.seek(toOffset: 5000)
        let byte = try handle.read(upToCount: 1)![0]
        try handle.seek(toOffset: 5000)
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
        try handle.close()
        unlink(path(deleted))
        let secret = try project.directory.write("secret.txt", "do not read or replace me")
        unlink(path(symlinked))
        symlink(secret.path, path(symlinked))
        try project.directory.write("out/objects/ff/\(String(repeating: "e", count: 62)).wav", "an orphan")
        try project.directory.write("out/objects/tmp/leftover.tmp", "half written")

        let check = try project.forge(["fsck", "out"])
        #expect(check.status == 1)
        #expect(check.text.contains("corrupt"))
        #expect(check.text.contains("missing"))
        #expect(check.text.contains("not a regular file"))
        #expect(check.text.contains("orphan"))
        #expect(check.text.contains("leftover temporary file"))
        #expect(check.text.contains("5 problem(s) found"))

        let repair = try project.forge(["fsck", "--repair", "out"])
        #expect(repair.status == 0)
        #expect(try project.forge(["fsck", "out"]).status == 0)
        let pending = Set(try project.manifest().items().filter { $0.status == .pending }.map(\.id))
        #expect(pending == [corrupted.id, deleted.id, symlinked.id])

        let rebuild = try project.build()
        #expect(rebuild.status == 0)
        #expect(rebuild.synthesizedItems == pending)
        #expect(try String(contentsOf: secret, encoding: .utf8) == "do not read or replace me")
        try project.checkConsistency()
        #expect(try project.forge(["fsck", "out"]).status == 0)
    }

    /// Objects are fsynced before they are linked, but the links are not: a power cut may lose an
    /// object's name (never leave one naming unwritten bytes), and the next build must make it again.
    @Test func anObjectWhoseLinkACrashLostIsMadeAgainByTheNextBuild() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        let items = try project.manifest().items().filter { $0.kind == "paragraph" }
        let objects = try project.manifest().objects(withKeys: [items[0].audioKey!, items[1].eventsKey!])
        unlink(project.output.appendingPathComponent(objects[items[0].audioKey!]!.path).path)
        unlink(project.output.appendingPathComponent(objects[items[1].eventsKey!]!.path).path)
        let rebuild = try project.build()
        #expect(rebuild.status == 0)
        #expect(rebuild.synthesizedItems == [items[0].id, items[1].id])
        try project.checkConsistency()
        #expect(try project.forge(["fsck", "out"]).status == 0)
    }

    @Test func aSymlinkPlantedAtAnObjectPathIsNeverFollowed() throws {
        let project = try TestProject()
        _ = try project.build()
        let item = try #require(try project.manifest().items().last)
        let object = try #require(try project.manifest().objects(withKeys: [item.audioKey!]).values.first)
        let target = project.output.appendingPathComponent(object.path)
        let secret = try project.directory.write("secret.txt", "private")
        unlink(target.path)
        symlink(secret.path, target.path)
        let rebuild = try project.build()
        #expect(rebuild.status == 0)
        #expect(rebuild.synthesizedItems == [item.id])
        var status = stat()
        #expect(lstat(target.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
        #expect(try String(contentsOf: secret, encoding: .utf8) == "private")
        try project.checkConsistency()
    }

    @Test func aDeletedManifestCostsNoSynthesis() throws {
        let project = try TestProject()
        _ = try project.build()
        for suffix in ["", "-wal", "-shm"] {
            unlink(project.output.appendingPathComponent("manifest.sqlite" + suffix).path)
        }
        let rebuild = try project.build()
        #expect(rebuild.status == 0)
        #expect(rebuild.synthesizedItems.isEmpty)
        #expect(rebuild.summary?["reused"] as? Int == 7)
        try project.checkConsistency()
    }

    @Test func aCorruptManifestGetsAClearErrorAndMovingItAsideRecovers() throws {
        let project = try TestProject()
        _ = try project.build()
        let manifest = project.output.appendingPathComponent("manifest.sqlite")
        for suffix in ["-wal", "-shm"] { unlink(manifest.path + suffix) }
        try Data(repeating: 0x5A, count: 8192).write(to: manifest)
        let broken = try project.build()
        #expect(broken.status == 3)
        #expect(broken.errors.contains("manifest.sqlite"))
        #expect(broken.errors.contains("move the file aside"))
        #expect(try project.forge(["status", "out"]).status == 3)
        try FileManager.default.moveItem(at: manifest, to: manifest.appendingPathExtension("bad"))
        let recovered = try project.build()
        #expect(recovered.status == 0)
        #expect(recovered.synthesizedItems.isEmpty)
        try project.checkConsistency()
    }

    @Test func aFullDiskFailsItemsCleanlyAndARerunCompletes() throws {
        let long = String(
            repeating: "She walked on through the long wet grass of the park, thinking of nothing at all. ", count: 11)
        let project = try TestProject(
            book: "Chapter 1\n\nA short line.\n\n\(long)\n\nAnother short one.",
            recipe: Fixtures.recipe(maxCharacters: 1000))
        // A 1 MB file-size limit: the long paragraph's audio (about 3 MB) cannot be written; writes fail with EFBIG.
        let limited = try ForgeProcess.run(
            ["-c", "ulimit -f 1000; exec \"$0\" build recipe.json --json", ForgeProcess.executable.path],
            in: project.directory.url,
            executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(limited.status == 1, "\(limited.errors)")
        let items = try project.manifest().items()
        let failures = items.filter { $0.status == .failed }
        #expect(failures.map(\.text) == [long.trimmingCharacters(in: .whitespaces)])
        #expect(failures.first?.error?.contains("File too large") == true, "\(failures.first?.error ?? "")")
        #expect(items.filter { $0.status == .done }.count == 3)
        try project.checkConsistency()
        #expect(project.temporaryFiles().isEmpty, "a partial object was left behind")
        let rerun = try project.build()
        #expect(rerun.status == 0)
        #expect(rerun.synthesizedItems == Set(failures.map(\.id)))
        try project.checkConsistency()
        #expect(try project.forge(["fsck", "out"]).status == 0)
    }

    @Test func markupAndControlCharactersAreSpokenAsText() throws {
        let book = "Chapter 1\n\n<speak><break time=\"20s\"/>Hello \u{07}\u{1B}[31m there [[h@l'oU]]</speak>"
        let project = try TestProject(book: book)
        let result = try project.build()
        #expect(result.status == 0)
        let item = try #require(try project.manifest().items().last)
        #expect(item.text.contains("<speak>"))
        #expect(!item.text.unicodeScalars.contains { $0.value < 0x20 })
        #expect((item.durationMs ?? 0) < 10_000, "a 20 s break was obeyed: markup was interpreted")
        let words = try project.manifest().words(of: item.id).map(\.text)
        #expect(words.contains("speak") && words.contains("break"))
    }

    @Test func buildsRecordTheirProvenance() throws {
        let project = try TestProject()
        _ = try project.build()
        let build = try #require(try project.manifest().lastBuild())
        #expect(build.toolVersion == ForgeVersion.current)
        #expect(build.engine == "espeak-ng")
        #expect(build.engineVersion == (try EspeakEngine().version))
        #expect(build.recipeHash == ContentHash.sha256Hex(try Data(contentsOf: project.directory.file("recipe.json"))))
        #expect(build.commandLine.hasSuffix("build recipe.json --json"))
        #expect(build.outcome == .succeeded)
        #expect(build.itemsSynthesized == 7)
    }

    @Test func aFiveMegabyteParagraphSplitsWithBoundedMemory() throws {
        let sentence =
            "It is a truth universally acknowledged that a single man in possession of a good fortune must be in want of a wife. "
        let paragraph = String(repeating: sentence, count: 5_000_000 / sentence.utf8.count)
        let project = try TestProject(book: "Chapter 1\n\n" + paragraph)
        // Two malloc arenas: how many a loaded machine's thread interleaving makes glibc open is
        // the allocator's variance, not Forge's memory.
        let forge = try ForgeProcess(
            ["plan", "recipe.json", "--json"], in: project.directory.url, environment: ["MALLOC_ARENA_MAX": "2"],
            measuringPeakMemory: true)
        let (plan, peak) = forge.waitMeasuringPeakMemory()
        #expect(plan.status == 0, "forge plan: \(plan.errors)")
        // About 45 bytes per character of one paragraph that is all one item list; the bound
        // catches memory growing out of proportion to the input, with room for variance.
        #expect(peak > 0 && peak < 400 << 20, "peak resident memory \(peak >> 20) MB")
        let fields =
            try JSONSerialization.jsonObject(with: Data(plan.text.utf8)) as? [String: Any]
        #expect((fields?["items"] as? Int ?? 0) > 8_000, "cut into items of at most 600 characters")
        #expect(
            fields?["words"] as? Int == paragraph.split(separator: " ").count + 2,
            "every word, plus the heading \"Chapter 1\"")
    }
}

@Suite("Damaged stores")
struct DamagedStoreTests {
    @Test func aDamagedEventsObjectIsReplacedNotFailedForever() throws {
        let project = try TestProject()
        _ = try project.build()
        let item = try #require(try project.manifest().items().last)
        let events = try #require(try project.manifest().objects(withKeys: [item.eventsKey!]).values.first)
        for suffix in ["", "-wal", "-shm"] {
            unlink(project.output.appendingPathComponent("manifest.sqlite" + suffix).path)
        }
        try Data("{\"truncated".utf8).write(to: project.output.appendingPathComponent(events.path))
        let rebuild = try project.build()
        #expect(rebuild.status == 0, "\(rebuild.errors)")
        #expect(rebuild.synthesizedItems == [item.id])
        #expect(rebuild.summary?["reused"] as? Int == 6)
        try project.checkConsistency()
    }
}
