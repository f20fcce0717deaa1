import Foundation
import Testing

@testable import Forge

/// An attacker's recipe and an impatient user: nothing outside the output directory is read,
/// written or deleted, and every phase stops on a signal. Real forge processes, real files.
@Suite("Hostile output directories, voice ids and signals", .serialized)
struct HostileInputTests {
    /// A folder outside every project, with a file that must survive.
    final class Victim {
        let directory: TemporaryDirectory
        var file: URL { directory.file("precious.txt") }

        init() throws {
            directory = try TemporaryDirectory("victim")
            try directory.write("precious.txt", "keep me\n")
        }

        var intact: Bool {
            (try? String(contentsOf: file, encoding: .utf8)) == "keep me\n"
                && (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path))?.sorted() == [
                    "precious.txt"
                ]
        }
    }

    /// The short book, built once per test that needs a finished output.
    func builtProject() throws -> TestProject {
        let project = try TestProject()
        let built = try project.build()
        try #require(built.status == 0, "\(built.errors)")
        return project
    }

    /// A process id no process has: one that has just exited.
    func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    // MARK: Links in the output directory

    @Test func aShardFolderThatIsALinkFailsItsItemsAndNothingIsWrittenThroughIt() throws {
        let project = try builtProject()
        let item = try #require(try project.manifest().items().first)
        let audioPath = try #require(try project.manifest().objects(withKeys: [item.audioKey ?? ""]).values.first?.path)
        let shard = (audioPath as NSString).deletingLastPathComponent
        // A new output directory in which the folder of that item's audio is a link, planted before
        // the build: the workers open their folders themselves.
        try FileManager.default.removeItem(at: project.output)
        try FileManager.default.createDirectory(
            at: project.output.appendingPathComponent("objects"), withIntermediateDirectories: true)
        let victim = try Victim()
        try FileManager.default.createSymbolicLink(
            at: project.output.appendingPathComponent(shard), withDestinationURL: victim.directory.url)

        let build = try project.build()
        #expect(build.status == 1, "\(build.errors)")
        let failures = build.events("item").filter { $0["outcome"] as? String == "failed" }.compactMap {
            $0["error"] as? String
        }
        #expect(
            !failures.isEmpty
                && failures.allSatisfy {
                    $0.contains("\(project.output.path)/\(shard): a symbolic link where forge keeps its own files")
                }, "\(failures) \(shard)")
        #expect(victim.intact, "an object was linked into the folder behind the link")
        #expect(try project.manifest().items().contains { $0.status == .done }, "items in other folders were built")
    }

    @Test func aLinkAtObjectsTmpIsRefusedNeverEmptiedAndFsckRemovesOnlyTheLink() throws {
        let project = try builtProject()
        let victim = try Victim()
        let tmp = project.output.appendingPathComponent("objects/tmp")
        try FileManager.default.removeItem(at: tmp)
        try FileManager.default.createSymbolicLink(at: tmp, withDestinationURL: victim.directory.url)

        let build = try project.build()
        #expect(build.status == 3)
        #expect(
            build.errors.contains("objects/tmp: a symbolic link where forge keeps its own files"), "\(build.errors)")
        #expect(build.summary?["exitCode"] as? Int == 3, "a --json build that cannot run still ends with a summary")
        #expect(victim.intact, "a build deleted files through objects/tmp")

        let fsck = try project.forge(["fsck", "out"])
        #expect(fsck.status == 1)
        #expect(fsck.text.contains("objects/tmp: a symbolic link"), "\(fsck.text)")
        let repair = try project.forge(["fsck", "--repair", "out"])
        #expect(repair.status == 0, "fsck --repair exits 0 once it repaired what it found: \(repair.text)")
        #expect(victim.intact, "fsck --repair followed the link")
        #expect(OwnedDirectory.entry(at: tmp.path) == .missing)

        let rebuilt = try project.build()
        #expect(rebuilt.status == 0, "\(rebuilt.errors)")
        #expect(rebuilt.summary?["nothingToDo"] as? Bool == true)
        #expect(victim.intact)
    }

    @Test func linksAtExportsTheLockAndAShardAreRefusedAndTheirTargetsUntouched() throws {
        let project = try builtProject()
        let victim = try Victim()

        // exports/ pointing outside: `forge export` writes nothing there.
        let exports = project.output.appendingPathComponent("exports")
        try? FileManager.default.removeItem(at: exports)
        try FileManager.default.createSymbolicLink(at: exports, withDestinationURL: victim.directory.url)
        let export = try project.forge(["export", "out", "--format", "json,vtt"])
        #expect(export.status == 3)
        #expect(export.errors.contains("exports: a symbolic link"), "\(export.errors)")
        #expect(victim.intact, "export wrote through the exports link")
        try FileManager.default.removeItem(at: exports)

        // The lock's note file pointing at a file outside: never truncated or written.
        let lock = project.output.appendingPathComponent(".forge.lock")
        try? FileManager.default.removeItem(at: lock)
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: victim.file)
        let locked = try project.build()
        #expect(locked.status == 3)
        #expect(locked.errors.contains(".forge.lock: a symbolic link"), "\(locked.errors)")
        #expect(victim.intact, "the lock file truncated its link's target")
        try FileManager.default.removeItem(at: lock)

        // An object shard folder pointing outside: a rebuild neither links objects into it nor reads through it.
        let manifest = try project.manifest()
        let item = try #require(try manifest.items().first)
        let audioPath = try #require(try manifest.objects(withKeys: [item.audioKey ?? ""]).values.first?.path)
        let shard = project.output.appendingPathComponent((audioPath as NSString).deletingLastPathComponent)
        try FileManager.default.removeItem(at: shard)
        // Outside, a file named like the object but not it: never hashed as it, reused or removed.
        let decoy = victim.directory.file((audioPath as NSString).lastPathComponent)
        try Data("not forge's".utf8).write(to: decoy)
        try FileManager.default.createSymbolicLink(at: shard, withDestinationURL: victim.directory.url)
        let export2 = try project.forge(["export", "out", "--format", "audio"])
        #expect(export2.status == 3)
        let fsck = try project.forge(["fsck", "--repair", "out"])
        #expect(fsck.status == 0, "fsck --repair exits 0 once it repaired what it found: \(fsck.text)")
        #expect(fsck.text.contains("missing"), "\(fsck.text)")
        #expect(OwnedDirectory.entry(at: shard.path) == .missing, "the shard link was not removed")
        let rebuilt = try project.build()
        #expect(rebuilt.status == 0, "\(rebuilt.errors)")
        #expect(!rebuilt.synthesizedItems.isEmpty, "items whose objects sat behind the link were not rebuilt")
        #expect(
            (try? String(contentsOf: decoy, encoding: .utf8)) == "not forge's", "the file behind the link was touched")
        #expect(try String(contentsOf: victim.file, encoding: .utf8) == "keep me\n")
        try project.checkConsistency()
    }

    @Test func deletingTheLockFileDoesNotLetASecondBuildIn() throws {
        let project = try TestProject(book: Fixtures.sampleText, recipe: Fixtures.recipe(jobs: 1))
        let first = try project.start()
        #expect(first.waitForLines(count: 1) { $0.contains("\"event\":\"item\"") })
        try FileManager.default.removeItem(at: project.output.appendingPathComponent(".forge.lock"))
        let second = try project.build()
        #expect(second.status == 3, "a second build ran beside the first: \(second.text.suffix(300))")
        #expect(second.errors.contains("another forge"), "\(second.errors)")
        first.signal(SIGINT)
        #expect(first.wait().status == 130)
        try project.checkConsistency()
    }

    // MARK: Voice ids, lexicons and titles

    @Test(arguments: [
        #""voice": {"id": "../../../../../etc/passwd"}"#,
        #""voice": {"id": "en-us+../../../../etc/passwd"}"#,
        #""voice": "espeak-ng:../../../../etc/passwd""#,
        #""voice": {"id": "espeak-ng:en-us+../../../etc/passwd?rate=170"}"#,
        #""cast": {"Hamlet": "espeak-ng:/etc/passwd"}"#,
        #""voice": {"id": "en-us+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}"#,
        #""voice": {"id": "en-us+klat"}"#,
    ])
    func voiceIdsThatAreNotInstalledVoicesAreRefusedBeforeEspeakSeesThem(voice: String) throws {
        let project = try TestProject(
            recipe: """
                { "version": 1, "sources": ["book.txt"], \(voice), "output": { "directory": "out" } }
                """)
        for command in ["plan", "build"] {
            let result = try project.forge([command, "recipe.json"])
            #expect(result.status == 2, "\(command): \(result.status) \(result.errors)")
            #expect(!(result.text + result.errors).contains("root:"), "the contents of /etc/passwd were printed")
            #expect(!result.errors.contains("Bad voice attribute"))
            #expect(result.errors.contains("voice") || result.errors.contains("cast"), "\(result.errors)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: project.output.path), "a refused recipe wrote its output directory")
    }

    @Test func aVariantTypoIsSuggestedAndForgeSayRefusesBadVoices() throws {
        let project = try TestProject(recipe: Fixtures.recipe(voice: "en-us+klat"))
        let plan = try project.forge(["plan", "recipe.json"])
        #expect(plan.status == 2)
        #expect(plan.errors.contains("Did you mean \"en-us+klatt\""), "\(plan.errors)")
        for voice in ["en-us+klat", "../../etc/passwd", "en-us+" + String(repeating: "a", count: 200)] {
            let say = try project.forge(["say", "Hello there.", "-o", "hello.wav", "--voice", voice])
            #expect(say.status == 2, "\(voice): \(say.status) \(say.errors)")
            #expect(!say.errors.contains("root:"))
            #expect(!FileManager.default.fileExists(atPath: project.directory.file("hello.wav").path))
        }
    }

    @Test func aLexiconOutsideTheProjectIsRefusedBeforeItIsRead() throws {
        let victim = try TemporaryDirectory("outside")
        // Not a lexicon: reading it first would quote its line in the parse error.
        let secret = try victim.write("secret.lexicon", "topsecret line of a private file\n")
        let project = try TestProject(recipe: Fixtures.recipe(extra: #""lexicon": "\#(secret.path)""#))
        try "".write(to: project.directory.file(".forge-project"), atomically: true, encoding: .utf8)
        let direct = try project.forge(["plan", "recipe.json"])
        #expect(direct.status == 2)
        #expect(direct.errors.contains("outside the project"), "\(direct.errors)")
        #expect(
            direct.errors.contains("pass --allow-outside-paths if you trust this recipe"),
            "the command line names the flag that allows it")
        #expect(!direct.errors.contains("topsecret"), "the lexicon was read before it was refused")

        // The same through a link inside the project.
        try FileManager.default.createSymbolicLink(
            at: project.directory.file("words.lexicon"), withDestinationURL: secret)
        try project.write(recipe: Fixtures.recipe(extra: #""lexicon": "words.lexicon""#))
        let linked = try project.forge(["plan", "recipe.json"])
        #expect(linked.status == 2)
        #expect(linked.errors.contains("outside the project"), "\(linked.errors)")
        #expect(!linked.errors.contains("topsecret"))
    }

    @Test func aTitleTooLongToNameAFileIsRefusedBeforeAnyWork() throws {
        let title = String(repeating: "Long title ", count: 500)
        let project = try TestProject(recipe: Fixtures.recipe(extra: #""title": "\#(title)", "exports": ["epub"]"#))
        let build = try project.build()
        #expect(build.status == 2)
        #expect(build.errors.contains("title"), "\(build.errors)")
        #expect(
            !FileManager.default.fileExists(atPath: project.output.path),
            "the build started before the title was checked")
        // An allowed title of 500 characters still names a file a file system accepts.
        let name = URL(
            fileURLWithPath: ExportPaths.epub(
                title: String(repeating: "ü", count: ExportSettings.maximumTitleCharacters))
        ).lastPathComponent
        #expect(name.utf8.count < 255 && name.hasSuffix(".epub"))
    }

    // MARK: Leftovers

    @Test func temporaryFilesOfAKilledExportOrPackAreReportedAndCleared() throws {
        let project = try builtProject()
        let dead = try deadProcessID()
        let exportLeftover = project.output.appendingPathComponent("exports/audio/.chapter-001.wav.\(dead).tmp")
        let verifyLeftover = project.output.appendingPathComponent(
            "verify/.lm-chapter-001-0123456789abcdef.arpa.\(dead).tmp")
        let packLeftover = project.directory.file(".pack.zip.\(dead).tmp")
        let packCopyLeftover = project.directory.file(".pack.zip.\(dead).sqlite")
        let objectLeftover = project.output.appendingPathComponent("objects/tmp/abc.\(dead).1.tmp")
        for url in [exportLeftover, verifyLeftover, packLeftover, packCopyLeftover, objectLeftover] {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: 1000).write(to: url)
        }
        let fsck = try project.forge(["fsck", "out"])
        #expect(fsck.status == 1)
        for path in [
            "exports/audio/.chapter-001.wav.\(dead).tmp", "verify/.lm-chapter-001-0123456789abcdef.arpa.\(dead).tmp",
            "objects/tmp/abc.\(dead).1.tmp",
        ] {
            #expect(fsck.text.contains("\(path): leftover temporary file"), "\(fsck.text)")
        }
        let export = try project.forge(["export", "out", "--format", "json", "--pack", "pack.zip"])
        #expect(export.status == 0, "\(export.errors)")
        for url in [exportLeftover, verifyLeftover, packLeftover, packCopyLeftover, objectLeftover] {
            #expect(!FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) was left")
        }
        let clean = try project.forge(["fsck", "out"])
        #expect(clean.status == 0, "\(clean.text)")
    }

    @Test func planAndStatusWriteNothingIntoTheOutput() throws {
        let project = try builtProject()
        let listing = { Set((try? FileManager.default.contentsOfDirectory(atPath: project.output.path)) ?? []) }
        let before = listing()
        #expect(!before.contains("manifest.sqlite-wal"), "the build left its write-ahead log: \(before)")
        #expect(try project.forge(["plan", "recipe.json"]).status == 0)
        #expect(try project.forge(["status", "out"]).status == 0)
        #expect(listing() == before, "plan or status wrote \(listing().subtracting(before))")
    }

    // MARK: Signals in every phase

    /// The sample (91 items, 17 minutes of audio) built once: exporting and verifying it take
    /// seconds, long enough to interrupt.
    @Test func ctrlCInExportAndVerifyStopsWithinASecondAndNeverPassesUnverifiedAudio() throws {
        let project = try TestProject(book: Fixtures.sampleText, recipe: Fixtures.recipe(jobs: 2))
        let built = try project.build()
        try #require(built.status == 0, "\(built.errors)")

        // Standalone export: stopped once its first file is written, before the EPUB.
        let export = try project.start(["export", "out", "--format", "all"])
        let firstFile = project.output.appendingPathComponent("exports/audio")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, export.process.isRunning,
            ((try? FileManager.default.contentsOfDirectory(atPath: firstFile.path)) ?? []).filter({ !$0.hasPrefix(".") }
            ).isEmpty
        {
            usleep(2_000)
        }
        let signalled = Date()
        export.signal(SIGINT)
        let stopped = export.wait()
        #expect(stopped.status == 130, "\(stopped.errors)")
        #expect(
            Date().timeIntervalSince(signalled) < 1.5, "export took \(Date().timeIntervalSince(signalled)) s to stop")
        #expect(stopped.errors.contains("stopped before finishing"), "\(stopped.errors)")
        // It counts what it wrote whole: every finished file, however deep the stop came from.
        let exportsFolder = project.output.appendingPathComponent("exports")
        let finished = (FileManager.default.enumerator(atPath: exportsFolder.path)?.allObjects as? [String] ?? [])
            .filter { !($0 as NSString).lastPathComponent.hasPrefix(".") && !(($0 as NSString).pathExtension.isEmpty) }
        let reported = stopped.errors.firstMatch(of: /(\d+) file\(s\) were written whole/).flatMap { Int($0.1) }
        #expect(reported == finished.count && !finished.isEmpty, "reported \(reported ?? -1), found \(finished)")
        let epubs =
            (try? FileManager.default.contentsOfDirectory(
                atPath: project.output.appendingPathComponent("exports/epub").path)) ?? []
        #expect(epubs.isEmpty, "the export finished before the signal; the test proves nothing")
        let leftovers = try OwnedDirectory(root: project.output).leftovers(remove: false)
        #expect(leftovers.isEmpty, "\(leftovers)")

        // Ctrl-C while the chapters are being encoded (to AAC, into the store's scratch folder), two
        // at a time. (The export above encoded them unmastered before it was stopped: mastered,
        // they are encoded again.)
        let encoding = try project.start(["export", "out", "--format", "epub", "--mastering", "ebu-r128"])
        let scratchFolder = project.output.appendingPathComponent("objects/tmp")
        func chapterFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: scratchFolder.path)) ?? [])
                .filter { $0.hasPrefix("encode-") && $0.hasSuffix(".\(encoding.process.processIdentifier).aac") }
        }
        let encodingDeadline = Date().addingTimeInterval(60)
        while Date() < encodingDeadline, encoding.process.isRunning, chapterFiles().isEmpty { usleep(1_000) }
        #expect(!chapterFiles().isEmpty, "no chapter was being encoded; the test proves nothing")
        let encodingSignal = Date()
        encoding.signal(SIGINT)
        #expect(encoding.wait().status == 130)
        #expect(
            Date().timeIntervalSince(encodingSignal) < 1.5,
            "the EPUB took \(Date().timeIntervalSince(encodingSignal)) s to stop")
        #expect(chapterFiles().isEmpty, "a chapter's encoded audio was left behind")
        #expect(try OwnedDirectory(root: project.output).leftovers(remove: false).isEmpty)
        #expect(try project.forge(["fsck", "out"]).status == 0, "a stopped encode left the store inconsistent")

        // kill -9 while the pack and the EPUB are being written: the next export clears what they left.
        let killed = try project.start(["export", "out", "--format", "epub", "--pack", "pack.zip"])
        // (libzip writes the archive to `.pack.zip.<pid>.tmp.XXXXXX`, then renames it.)
        let packTemporary = ".pack.zip.\(killed.process.processIdentifier).tmp"
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: project.directory.url.path)) ?? []).filter {
                $0.hasPrefix(packTemporary)
            }
        }
        let appeared = Date().addingTimeInterval(60)
        while Date() < appeared, killed.process.isRunning, temporaries().isEmpty { usleep(1_000) }
        killed.signal(SIGKILL)
        _ = killed.wait()
        #expect(!temporaries().isEmpty, "the pack finished before the kill; the test proves nothing")
        let again = try project.forge(["export", "out", "--format", "json", "--pack", "pack.zip"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(temporaries().isEmpty, "the killed pack's temporary file was left")
        #expect(try OwnedDirectory(root: project.output).leftovers(remove: false).isEmpty)
        #expect(try project.forge(["fsck", "out"]).status == 0)

        // The build's export phase, then its verify phase.
        try project.write(
            recipe: Fixtures.recipe(
                jobs: 2, extra: #""exports": ["audio", "json", "epub"], "verify": { "maxWordErrorRate": 0.5 }"#))
        let exporting = try project.start()
        #expect(exporting.waitForLines(count: 1) { $0.contains("\"phase\":\"export\"") })
        let exportSignal = Date()
        exporting.signal(SIGINT)
        let exportStopped = exporting.wait()
        #expect(exportStopped.status == 130, "\(exportStopped.errors)")
        #expect(Date().timeIntervalSince(exportSignal) < 1.5)
        #expect(exportStopped.summary?["cancelled"] as? Bool == true)
        #expect(
            exportStopped.events("phase").allSatisfy { $0["phase"] as? String != "verify" },
            "verification ran after a stop")

        let verifying = try project.start()
        #expect(verifying.waitForLines(count: 1, timeout: 120) { $0.contains("\"event\":\"verified\"") })
        let verifySignal = Date()
        verifying.signal(SIGTERM)
        let verifyStopped = verifying.wait()
        #expect(verifyStopped.status == 130, "\(verifyStopped.errors)")
        #expect(
            Date().timeIntervalSince(verifySignal) < 1.5,
            "verification took \(Date().timeIntervalSince(verifySignal)) s to stop")
        #expect(verifyStopped.summary?["cancelled"] as? Bool == true)
        #expect(
            verifyStopped.summary?["verificationPassed"] as? Bool != true,
            "a cut-short verification was reported as passed")
        #expect(try project.manifest().lastBuild()?.outcome == .cancelled)

        // `forge verify` stopped: its report covers the chunks it has, not the whole book.
        let standalone = try project.start(["verify", "out", "--json"])
        usleep(1_500_000)
        standalone.signal(SIGINT)
        let partial = standalone.wait()
        let fields = try JSONSerialization.jsonObject(with: Data(partial.text.utf8)) as? [String: Any]
        let covered = fields?["coveredMs"] as? Int ?? -1
        let audio = fields?["audioMs"] as? Int ?? -1
        if (fields?["missingChunks"] as? Int ?? 0) > 0 {
            #expect(covered >= 0 && covered < audio, "a stopped verify reported \(covered) of \(audio) ms covered")
        } else {
            #expect(covered == audio, "\(partial.text)")
        }

        // The report of a stopped verification is incomplete, so never passed.
        var report = VerifyReport(
            available: true, unavailableReason: nil, missingChunks: 3, chunks: [], maxWordErrorRate: 0.5,
            recognizer: "", elapsedSeconds: 0, audioMs: 0)
        #expect(!report.passed)
        report.missingChunks = 0
        #expect(!report.passed, "stopped before every item was screened")
        report.screen = ScreenReport(items: 3, flagged: [], profiledVoices: 1, elapsedSeconds: 0)
        #expect(report.passed)
    }

    @Test func ctrlCWhileSplittingAHugeSourceStopsAtOnceAndWritesNothing() throws {
        let project = try TestProject(recipe: Fixtures.recipe())
        // 24 MB of one paragraph, a sentence a line (a single line that long is refused at once):
        // seconds of splitting before anything is written.
        let sentence = "The quick brown fox jumps over the lazy dog again and again.\n"
        try Data(String(repeating: sentence, count: 400_000).utf8).write(to: project.directory.file("book.txt"))
        for signal in [SIGINT, SIGTERM] {
            let forge = try project.start()
            usleep(400_000)
            #expect(forge.process.isRunning, "the split finished before the signal; the test proves nothing")
            let signalled = Date()
            forge.signal(signal)
            let stopped = forge.wait()
            #expect(stopped.status == 130)
            #expect(Date().timeIntervalSince(signalled) < 1.0, "took \(Date().timeIntervalSince(signalled)) s to stop")
            #expect(!FileManager.default.fileExists(atPath: project.output.path))
        }
    }

    // MARK: Parsing and messages

    @Test func deeplyNestedHTMLParsesInLinearTime() throws {
        func seconds(_ html: String, mode: HTMLReader.Mode) throws -> Double {
            var best = Double.infinity
            for _ in 0..<3 {
                let clock = ContinuousClock.now
                _ = try HTMLReader(mode: mode).read(html, path: "deep.html")
                best = min(best, BuildPipeline.seconds(since: clock))
            }
            return best
        }
        for (small, large) in [(2_000, 16_000)] {
            // XHTML (libxml2) refuses elements nested past 256: nests of 250, side by side.
            let nested = { (count: Int) in
                "<html><body>"
                    + String(
                        repeating: String(repeating: "<div>", count: 250) + "text"
                            + String(repeating: "</div>", count: 250), count: count / 250) + "</body></html>"
            }
            let unclosed = { (depth: Int) in
                "<html><body>" + String(repeating: "<div><span><b>x", count: depth / 3) + "</body></html>"
            }
            // Eight times the input: linear costs about 8 times the time, quadratic 64 times.
            let nestedRatio = try seconds(nested(large), mode: .xhtml) / seconds(nested(small), mode: .xhtml)
            let unclosedRatio = try seconds(unclosed(large), mode: .html) / seconds(unclosed(small), mode: .html)
            #expect(nestedRatio < 24, "nested \(small)→\(large): \(nestedRatio)× the time")
            #expect(unclosedRatio < 24, "unclosed \(small)→\(large): \(unclosedRatio)× the time")
        }
        // Deeper XHTML is refused at once, saying why.
        let deep =
            "<html><body>" + String(repeating: "<div>", count: 16_000) + "text"
            + String(repeating: "</div>", count: 16_000) + "</body></html>"
        let clock = ContinuousClock.now
        #expect(
            throws: DocumentError.malformedMarkup(
                file: "deep.xhtml", line: 1, column: 1288, problem: "elements are nested more than 256 deep")
        ) {
            try HTMLReader(mode: .xhtml).read(deep, path: "deep.xhtml")
        }
        #expect(BuildPipeline.seconds(since: clock) < 1)
    }

    @Test func messagesNameWhatIsWrong() throws {
        let folder = try TemporaryDirectory()
        let recipe = folder.file("recipe.json")
        func problem(_ json: String) -> String {
            do {
                _ = try RecipeLoader().parse(Data(json.utf8), file: recipe)
                return ""
            } catch { return error.localizedDescription }
        }
        #expect(
            problem("{\"version\": 1, // a note\n \"sources\": [\"b.txt\"]}").contains(
                "a comment, which JSON does not allow"))
        #expect(problem("{\"version\": 1, /* note */ \"sources\": [\"b.txt\"]}").contains("a comment"))
        #expect(problem("{\"version\": 1, \"sources\": [\"b.txt\"],}").contains("trailing comma before '}'"))
        #expect(!problem("{\"version\": 1 \"sources\": []}").contains("trailing comma"))

        let fifo = folder.file("fifo.txt")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(throws: TextError.notAFile(file: fifo.path, kind: "a named pipe (FIFO)")) {
            try SourceReader.read(fifo)
        }
        #expect(throws: TextError.notAFile(file: "/dev/zero", kind: "a device")) {
            try SourceReader.read(URL(fileURLWithPath: "/dev/zero"))
        }
        let utf16 = folder.file("utf16.txt")
        try "Chapter 1\n\nIt is a truth.".data(using: .utf16)!.write(to: utf16)
        #expect(try SourceReader.read(utf16) == "Chapter 1\n\nIt is a truth.")
        let bigEndianWithoutMark = folder.file("utf16be.txt")
        try "Chapter 1\n\nIt is a truth.".data(using: .utf16BigEndian)!.write(to: bigEndianWithoutMark)
        #expect(try SourceReader.read(bigEndianWithoutMark) == "Chapter 1\n\nIt is a truth.")
        let cutShort = folder.file("utf16-odd.txt")
        try (Data([0xFF, 0xFE]) + "Chapter 1".data(using: .utf16LittleEndian)! + Data([0x41])).write(to: cutShort)
        #expect(throws: TextError.badUTF16(file: cutShort.path, byteOffset: 20)) { try SourceReader.read(cutShort) }
        let missing = TextError.unreadable(file: "/nope.txt", reason: "No such file or directory.").localizedDescription
        #expect(!missing.contains(".."), "\(missing)")

        #expect(
            DocumentError.sizeMismatch(file: "b.epub", entry: "OEBPS/a.xhtml", declared: 10).localizedDescription
                .contains("10 bytes its zip header declares"))
        #expect(
            DocumentError.tooLarge(file: "b.epub", entry: "x", limit: 64 << 20).localizedDescription.contains("64 MiB"))
        #expect(ErrorReason.text(CocoaError(.fileNoSuchFile)) == "No such file or directory")
        #expect(!ErrorReason.text(CocoaError(.fileWriteUnknown)).contains("NSCocoaErrorDomain"))
    }

    /// Found by scripts/fuzz.sh: a truncated central directory that crashed ZIPFoundation's
    /// in-memory archive (exit 132) when the EPUB came from standard input.
    static let fuzzedEPUB =
        "UEsDBBQAAAAAAAAAIQBvYassFAAAABQAAAAIAAAAbWltZXR5cGVhcHBsaWNhdGlvbi9lcHViK3ppcFBLAwQUAAAAAAAFSnddHgvXyd0AAADdAAAAFgAAAE1FVEEtSU5GL2NvbnRhaW5lci54bWw8P3htbCB2ZXJzaW9uPSIxLjAiPz48Y29udGFpbmVyIHZlcnNpb249IjEuMCIgeG1sbnM9InVybjpvYXNpczpuYW1lczp0YzpvcGVuZG9jdW1lbnQ6eG1sbnM6Y29udGFpbmVyIj48cm9vdGZpbGVzPjxyb290ZmlsZSBmdWxsLXBhdGg9Ik9FQlBTL2NvbnRlbnQub3BmIiBtZWRpYS10eXBlPSJhcHBsaWNhdGlvbi9vZWJwcy1wYWNrYWdlK3htbCIvPjwvcm9vdGZpbGVzPjwvY29udGFpbmVyPlBLAwQUAAAAAAAFSnddp3sVWt4BAADeAQAAEQAAAE9FQlBTL2NvbnRlbnQub3BmPD94bWwgdmVyc2lvbj0iMS4wIj8+PHBhY2thZ2UgeG1sbnM9Imh0dHA6Ly93d3cuaWRwZi5vcmcvMjAwNy9vcGYiIHZlcnNpb249IjMuMCIgdW5pcXVlLWlkZW50aWZpZXI9ImlkIj48bWV0YWRhdGEgeG1sbnM6ZGM9Imh0dHA6Ly9wdXJsLm9yZy9kYy9lbGVtZW50cy8xLjEvIj48ZGM6aWRlbnRpZmllciBpZD0iaWQiPng8L2RjOmlkZW50aWZpZXI+PGRjOnRpdGxlPlQ8L2RjOnRpdGxlPjxkYzpsYW5ndWFnZT5lbjwvZGM6bGFuZ3VhZ2U+PC9tZXRhZGF0YT48bWFuaWZlc3Q+PGl0ZW0gaWQ9ImMxIiBocmVmPSJjMS54aHRtbCIgbWVkaWEtdHlwZT0iYXBwbGljYXRpb24veGh0bWwreG1sIi8+PGl0ZW0gaWQ9Im5hdiIgaHLeAQAA3gEAABEAAAAAAAAAAAAAAIABSwEAAE9FQlBTL2NvbnRlbnQub3BmUEsBAhQDFAAAAAAABUp3XXvmiNbHAAAAxwAAAA8AAAAAAAAAAAAAAIABWAMAAE9FQlBTL25hdi54aHRtbFBLAQIUAxQAAAAAAAVKd11gheaahAAAAIQAAAAOAAAAAAAAAAAAAACAAUwEAABPRUJQUy9jMS54aHRtbFBLBQYAAAAABQAFADIBAAD8BAAAAAA="

    @Test func aMalformedEPUBOnStandardInputIsRefusedNotACrash() throws {
        let project = try TestProject(
            recipe: #"{ "version": 1, "sources": [{"path": "-", "format": "epub"}], "output": { "directory": "out" } }"#
        )
        let input = try #require(Data(base64Encoded: Self.fuzzedEPUB))
        let result = try ForgeProcess.run(["plan", "recipe.json"], in: project.directory.url, standardInput: input)
        #expect(result.status == 2, "\(result.status): \(result.errors)")
        #expect(result.errors.contains("-: a zip archive, but not an EPUB"), "\(result.errors)")
        // The same reader still reads a good EPUB from standard input.
        let book = project.directory.file("book.epub")
        try BookFormats.corpus(chapters: 1).writeEPUB(to: book)
        let good = try ForgeProcess.run(
            ["plan", "recipe.json", "--json"], in: project.directory.url, standardInput: try Data(contentsOf: book))
        #expect(good.status == 0, "\(good.errors)")
    }

    @Test func aMissingEngineProgramIsNamed() throws {
        let project = try TestProject(
            recipe: """
                {
                  "version": 1, "sources": ["book.txt"],
                  "engines": { "ghost": { "command": ["/usr/bin/env", "forge-no-such-engine-program"] } },
                  "voice": { "engine": "ghost", "id": "one" },
                  "output": { "directory": "out" }
                }
                """)
        let result = try project.forge(["plan", "recipe.json", "--allow-commands"])
        let build = result.status == 0 ? try project.build(["--allow-commands"]) : result
        #expect(build.status == 3, "\(build.errors)")
        #expect(build.errors.contains("No such file or directory"), "\(build.errors)")
        #expect(!build.errors.contains(".."), "\(build.errors)")
    }
}
