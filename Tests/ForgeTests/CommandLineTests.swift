import Foundation
import Testing

@testable import Forge

/// What the forge command line does with bad input: exit codes and messages, nothing written.
@Suite("forge command line")
struct CommandLineTests {
    @Test(arguments: [
        ("{\n  \"sources\": [\"book.txt\"\n}", "recipe.json:3:1", "malformed JSON"),
        (#"{"sources": ["book.txt"], "voice": {"rat": 170}}"#, "voice.rat", "Did you mean \"rate\"?"),
        (#"{"sources": ["book.txt"], "voice": {"rate": "fast"}}"#, "voice.rate", "found the string \"fast\""),
        (#"{"sources": ["missing.txt"]}"#, "sources[0]", "does not exist. Paths are relative to the recipe's folder."),
        (
            #"{"sources": ["book.txt"], "voice": {"id": "en-uss"}}"#, "voice.id",
            "Did you mean \"en-us\"? Run `forge voices` for the installed"
        ),
        (
            #"{"sources": ["book.txt"], "audio": {"format": "aiff"}}"#, "audio.format",
            "\"wav\", \"flac\", \"ogg\", \"mp3\""
        ),
        (#"[1, 2]"#, "recipe.json", "expected an object"),
        (
            #"{"sources": ["book.txt"], "audio": {"format": "opus", "sampleRate": 22050}}"#, "audio.sampleRate",
            "8000, 16000, 24000, 48000 Hz (the rates Opus"
        ),
    ])
    func badRecipesExitTwoAndLeaveTheOutputUntouched(recipe: String, path: String, message: String) throws {
        let project = try TestProject(recipe: recipe)
        for command in ["build", "plan", "split"] {
            let result = try project.forge([command, "recipe.json", "--output", "out"])
            #expect(result.status == 2, "\(command): \(result.errors)")
            #expect(result.errors.contains(path), "\(command): \(result.errors)")
            #expect(result.errors.contains(message), "\(command): \(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: project.output.path))
        }
    }

    /// `forge build recipe.json | head -c 1`: the reader goes away after one byte; the build must
    /// carry on and finish, not crash on the closed pipe (it did: exit 132, build left "running").
    @Test func aClosedStandardOutputDoesNotStopTheBuild() throws {
        let project = try TestProject()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.currentDirectoryURL = project.directory.url
        process.arguments = [
            "-c",
            "'\(ForgeProcess.executable.path)' build recipe.json --json | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try project.manifest().lastBuild()?.outcome == .succeeded)
        #expect(try project.doneItems().count == (try project.manifest().items().count))
    }

    /// A CI log gets a line per tenth of the work, the exports' progress lines and a summary, not
    /// thousands of JSON events; `--json` keeps the events. The same build makes Opus objects (48 kHz) and exports Opus.
    @Test func aBuildIntoAPipePrintsProgressLinesAndItsSummaryAndOpusObjects() throws {
        let recipe = Fixtures.recipe(format: "opus", maxCharacters: 100, extra: #""exports": ["audio"]"#)
            .replacingOccurrences(of: "22050", with: "48000")
        let project = try TestProject(book: Fixtures.shortBook + "\n\n" + Fixtures.shortBook, recipe: recipe)
        let process = Process()
        let output = Pipe()
        process.executableURL = ForgeProcess.executable
        process.currentDirectoryURL = project.directory.url
        process.arguments = ["build", "recipe.json"]
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("{") }, "\(text)")
        let progress = lines.filter { $0.hasPrefix("[") && $0.contains("% ") }
        let items = try project.manifest().items().count
        #expect(items > 15 && progress.count >= 2 && progress.count <= 11 + 2, "\(text)")
        #expect(progress.last?.hasPrefix("[\(items)/\(items)] 100.0%") == true, "\(text)")
        #expect(
            lines.contains { $0.hasPrefix("Build finished in") } && lines.contains { $0.hasPrefix("Exported ") },
            "\(text)")
        // The recipe's exports print their progress lines with the build's.
        #expect(lines.contains { $0.hasPrefix("export: audio chapter ") && $0.contains("(100%)") }, "\(text)")

        let store = ObjectStore(root: project.output)
        for object in try project.manifest().allObjects() where object.role == .audio {
            #expect(object.path.hasSuffix(".opus"))
            // Opus in Ogg, not another codec under the name: the stream starts with an OpusHead packet.
            let head = try Data(contentsOf: store.url(forRelativePath: object.path)).prefix(64)
            #expect(head.starts(with: Data("OggS".utf8)) && head.range(of: Data("OpusHead".utf8)) != nil)
            #expect(try SoundFile.decode(fileAt: store.url(forRelativePath: object.path)).sampleRate == 48000)
        }
        let chapter = try SoundFile.decode(
            fileAt: project.output.appendingPathComponent("exports/audio/chapter-001.opus"))
        #expect(chapter.sampleRate == 48000 && chapter.durationMs > 1000)

        let json = try project.forge(["build", "recipe.json", "--json"])
        #expect(json.lines.allSatisfy { $0.hasPrefix("{") } && json.summary?["nothingToDo"] as? Bool == true)
    }

    @Test func unknownVoiceSuggestsNearNames() throws {
        let project = try TestProject(recipe: #"{"sources": ["book.txt"], "voice": {"id": "en-uss"}}"#)
        let result = try project.forge(["build", "recipe.json"])
        #expect(result.errors.contains("Did you mean"))
        #expect(result.errors.contains("\"en-us\""))
        // For a tool (the SwiftPM plugin sets FORGE_DIAGNOSTICS=json): the error as JSON, with its
        // file, field and suggestion apart from the message.
        let forTool = try project.forge(["build", "recipe.json"], environment: ["FORGE_DIAGNOSTICS": "json"])
        let line = try #require(forTool.errors.split(separator: "\n").last.map(String.init))
        let diagnostic = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(forTool.errors)")
        #expect(forTool.status == 2 && diagnostic["severity"] as? String == "error", "\(diagnostic)")
        #expect(
            (diagnostic["file"] as? String)?.hasSuffix("/recipe.json") == true
                && diagnostic["field"] as? String == "voice.id", "\(diagnostic)")
        #expect(
            (diagnostic["suggestion"] as? String)?.contains("forge voices") == true
                && !(diagnostic["message"] as? String ?? "").contains("forge voices"), "\(diagnostic)")
    }

    @Test func sourcesThatAreNotTextAreRefused() throws {
        let project = try TestProject()
        try Data([0x43, 0x68, 0x61, 0x70, 0xFF, 0xFE, 0x00]).write(to: project.directory.file("book.txt"))
        let binary = try project.build()
        #expect(binary.status == 2)
        #expect(binary.errors.contains("byte offset 6"))
        // Latin-1 is read (Gutenberg's -8.txt files); text in another 8-bit code page is refused.
        try Data("Caf\u{E9}".utf8.dropLast(2) + [0xE9, 0x20, 0x61]).write(to: project.directory.file("book.txt"))
        let latin1 = try project.build()
        #expect(latin1.status == 0, "\(latin1.errors)")
        try Data([0xE7, 0xCC, 0xC1, 0xD7, 0xC1, 0x20, 0x31, 0x0A, 0x0A, 0xF7, 0xD3, 0xC5, 0x20, 0xD3, 0xDE, 0xC1, 0xD3])
            .write(to: project.directory.file("book.txt"))
        let russian = try project.build()
        #expect(russian.status == 2)
        #expect(russian.errors.contains("not UTF-8, UTF-16 or Western 8-bit text"), "\(russian.errors)")
        try project.write(book: "\n\n   \n")
        let empty = try project.build()
        #expect(empty.status == 2)
        #expect(empty.errors.contains("no speakable text"))
    }

    /// `forge say` without words is bad input; an unwritable path says so; `forge voices` prints no espeak-ng notices.
    @Test func sayAndVoicesSpeakPlainly() throws {
        let directory = try TemporaryDirectory()
        let empty = try ForgeProcess.run(["say", " … ", "-o", "e.wav"], in: directory.url)
        #expect(empty.status == 2 && empty.errors.contains("nothing to say"), "\(empty.errors)")
        let unwritable = try ForgeProcess.run(["say", "Hello.", "-o", "no/such/folder/x.wav"], in: directory.url)
        #expect(
            unwritable.status == 3 && unwritable.errors.contains("cannot be written there")
                && !unwritable.errors.contains("disk space"), "\(unwritable.errors)")
        let voices = try ForgeProcess.run(["voices"], in: directory.url)
        #expect(voices.status == 0 && voices.lines.count > 50)
        #expect(!voices.errors.contains("dictionary") && !voices.text.contains("dictionary"), "\(voices.errors)")
    }

    @Test func usageErrorsExitTwo() throws {
        let directory = try TemporaryDirectory()
        #expect(try ForgeProcess.run(["build"], in: directory.url).status == 2)
        #expect(try ForgeProcess.run(["frobnicate"], in: directory.url).status == 2)
        #expect(try ForgeProcess.run(["build", "r.json", "--jobs", "0"], in: directory.url).status == 2)
        // Commands take only the options that apply to them.
        #expect(try ForgeProcess.run(["plan", "r.json", "--jobs", "2"], in: directory.url).status == 2)
        #expect(try ForgeProcess.run(["split", "r.json", "--save-interval", "5"], in: directory.url).status == 2)
        let planHelp = try ForgeProcess.run(["plan", "--help"], in: directory.url)
        #expect(!planHelp.text.contains("--jobs") && planHelp.text.contains("Print the plan as one JSON object"))
        let missing = try ForgeProcess.run(["build", "nowhere.json"], in: directory.url)
        #expect(missing.status == 2)
        #expect(missing.errors.contains("nowhere.json: cannot read the recipe: no such file"))
        #expect(try ForgeProcess.run(["--help"], in: directory.url).status == 0)
        // Ranges come from the settings types; options are named after the recipe keys they mirror.
        let pause = try ForgeProcess.run(["export", "out", "--sentence-ms", "20000"], in: directory.url)
        #expect(
            pause.status == 2
                && pause.errors.contains(
                    "--sentence-ms must be from \(ExportSettings.allowedPauses.lowerBound) to \(ExportSettings.allowedPauses.upperBound); found 20000."
                ), "\(pause.errors)")
        let rate = try ForgeProcess.run(["verify", "out", "--max-word-error-rate", "1.5"], in: directory.url)
        #expect(
            rate.status == 2 && rate.errors.contains("--max-word-error-rate must be from 0.0 to 1.0"), "\(rate.errors)")
        let interval = try ForgeProcess.run(["align", "r.json", "--save-interval", "0"], in: directory.url)
        #expect(
            interval.status == 2 && interval.errors.contains("--save-interval must be from 1 to 100000"),
            "\(interval.errors)")
        // Profiles are typed arguments: a wrong one is refused before anything runs, naming the ones there are.
        let profile = try ForgeProcess.run(["check", "out", "--profile", "loud"], in: directory.url)
        #expect(profile.status == 2 && profile.errors.contains("'acx', 'ebu-r128' or 'podcast'"), "\(profile.errors)")
        let mastering = try ForgeProcess.run(["export", "out", "--mastering", "louder"], in: directory.url)
        #expect(mastering.status == 2 && mastering.errors.contains("'podcast' or 'none'"), "\(mastering.errors)")
        // A voice URI is checked by the parser, which names the option and what is wrong.
        let voice = try ForgeProcess.run(
            ["say", "Hello.", "-o", "hello.wav", "--voice", "espeak-ng:en-us?rate=fast"], in: directory.url)
        #expect(
            voice.status == 2 && voice.errors.contains("is invalid for '--voice <voice>': \"rate=fast\""),
            "\(voice.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("hello.wav").path))
        // `forge align` is two subcommands: a recipe's items (the default) and a narration.
        let narration = try ForgeProcess.run(
            ["align", "narration", "--audio", "a.flac", "--text", "t.txt"], in: directory.url)
        #expect(
            narration.status == 2 && narration.errors.contains("Missing expected argument '--output <output>'"),
            "\(narration.errors)")
        #expect(
            try ForgeProcess.run(["align", "narration", "--help"], in: directory.url).text.contains(
                "USAGE: forge align narration --audio <audio>"))
        #expect(
            try ForgeProcess.run(["align", "items", "--help"], in: directory.url).text.contains(
                "USAGE: forge align items <recipe>"))
    }

    /// The old option names still work beside the ones that mirror the recipe's keys.
    @Test func exportAndVerifyOptionsMirrorTheRecipeKeysAndKeepTheirOldSpellings() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        for options in [
            [
                "--sentence-ms", "300", "--paragraph-ms", "800", "--chapter-ms", "1000", "--max-cue-characters", "40",
                "--word-level-overlays",
            ],
            [
                "--sentence-pause", "300", "--paragraph-pause", "800", "--chapter-pause", "1000", "--max-cue-length",
                "40", "--word-overlays",
            ],
        ] {
            let result = try project.forge(["export", "out", "--format", "json", "vtt"] + options)
            #expect(result.status == 0, "\(options): \(result.errors)")
        }
        let cues = try String(
            contentsOf: project.output.appendingPathComponent("exports/captions/chapter-001.vtt"), encoding: .utf8)
        #expect(
            cues.split(separator: "\n").filter { !$0.contains("-->") && !$0.hasPrefix("WEBVTT") }.allSatisfy {
                $0.count <= 40
            })
        // A line per format, files listed only with --verbose.
        let quiet = try project.forge(["export", "out", "--format", "json", "vtt", "srt"])
        let folders = quiet.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(folders == ["json", "captions"], "\(quiet.text)")
        #expect(quiet.lines.last?.contains("4 files") == true, "two chapters, .vtt and .srt: \(quiet.text)")
        let listed = try project.forge(["export", "out", "--format", "json", "vtt", "srt", "--verbose"])
        #expect(listed.lines.contains { $0.hasSuffix("exports/captions/chapter-002.srt") }, "\(listed.text)")
    }

    @Test func statusOfADirectoryThatIsNotAnOutput() throws {
        let directory = try TemporaryDirectory()
        let result = try ForgeProcess.run(["status", directory.url.path], in: directory.url)
        #expect(result.status == 3)
        #expect(result.errors.contains("not a forge output directory"))
    }

    @Test func unwritableOutputIsReportedUpFront() throws {
        guard getuid() != 0 else {
            // root writes anywhere; a read-only filesystem needs privileges the suite does not assume.
            let project = try TestProject()
            let result = try project.forge([
                "build", "recipe.json", "--allow-outside-paths", "--output", "/proc/forge-out",
            ])
            #expect(result.status == 3)
            #expect(result.errors.contains("/proc/forge-out"))
            return
        }
        let project = try TestProject()
        let locked = project.directory.file("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        chmod(locked.path, 0o500)
        let result = try project.forge(["build", "recipe.json", "--output", locked.path])
        #expect(result.status == 3)
        #expect(result.errors.contains("not writable"))
    }
}
