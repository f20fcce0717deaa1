import Foundation
import Testing

@testable import Forge

@Suite("Recipe validation")
struct RecipeLoaderTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("recipe")
        try directory.write("book.txt", "Hello there.")
    }

    func load(_ json: String, allowOutsidePaths: Bool = false) throws -> Recipe {
        let file = try directory.write("recipe.json", json)
        return try RecipeLoader().load(from: file, allowOutsidePaths: allowOutsidePaths)
    }

    func refusal(_ json: String) throws -> RecipeError {
        do {
            _ = try load(json)
        } catch let error as RecipeError {
            return error
        }
        Issue.record("the recipe was accepted")
        throw CancellationError()
    }

    /// A recipe without a title names its exports after its first source: the title the document
    /// declares (HTML `<title>`, EPUB `dc:title`), else the file's name.
    @Test func aRecipeWithoutATitleTakesItsFirstSourcesTitle() throws {
        #expect(try load(#"{ "sources": ["book.txt"] }"#).exports.title == "book")
        try directory.write(
            "page.html",
            "<html><head><title>  A Tale of\n Two Cities </title></head><body><p>It was the best of times.</p></body></html>"
        )
        #expect(try load(#"{ "sources": ["page.html", "book.txt"] }"#).exports.title == "A Tale of Two Cities")
        try BookFormats(plainText: "Chapter 1\n\nHello.\n").writeEPUB(to: directory.file("novel.epub"))
        let epub = try load(#"{ "sources": ["novel.epub"] }"#)
        #expect(epub.exports.title == "Pride and Prejudice", "\(epub.exports.title)")
        #expect(try load(#"{ "title": "Mine", "sources": ["page.html"] }"#).exports.title == "Mine")
    }

    @Test func defaultsAndResolvedPaths() throws {
        let recipe = try load(#"{"sources": ["book.txt"]}"#)
        #expect(recipe.voice == VoiceSettings())
        #expect(recipe.audio.format == .wav)
        #expect(recipe.audio.sampleRate == 22050)
        #expect(recipe.build.saveInterval == nil, "absent: saved every second or 64 items")
        #expect(recipe.build.jobs == ProcessInfo.processInfo.activeProcessorCount)
        #expect(recipe.split.maxCharacters == 1000)
        #expect(recipe.sources.map(\.url.path) == [directory.file("book.txt").standardizedFileURL.path])
        #expect(
            recipe.outputDirectory.path == directory.url.appendingPathComponent("build/recipe").standardizedFileURL.path
        )
    }

    @Test func everyKeyIsRead() throws {
        let recipe = try load(
            """
            {"version": 1, "title": "T", "language": "en", "sources": [{"path": "book.txt", "format": "markdown"}],
             "split": {"unit": "sentence", "maxCharacters": 200},
             "voice": {"engine": "espeak-ng", "id": "en-us+klatt", "rate": 200, "pitch": 40, "volume": 90},
             "audio": {"format": "flac", "sampleRate": 16000}, "build": {"saveInterval": 5, "jobs": 3},
             "output": {"directory": "/tmp/elsewhere"}}
            """, allowOutsidePaths: true)
        #expect(recipe.title == "T")
        #expect(recipe.sources.first?.format == .markdown)
        #expect(recipe.split == SplitSettings(unit: .sentence, maxCharacters: 200))
        #expect(recipe.voice == VoiceSettings(engine: "espeak-ng", id: "en-us+klatt", rate: 200, pitch: 40, volume: 90))
        #expect(recipe.audio == AudioSettings(format: .flac, sampleRate: 16000))
        #expect(recipe.build == BuildSettings(saveInterval: 5, jobs: 3))
        #expect(recipe.outputDirectory.path == "/tmp/elsewhere")
    }

    @Test func outputOverrideWins() throws {
        let file = try directory.write("recipe.json", #"{"sources": ["book.txt"], "output": {"directory": "a"}}"#)
        let recipe = try RecipeLoader().load(
            from: file, outputOverride: URL(fileURLWithPath: "/tmp/b"), allowOutsidePaths: true)
        #expect(recipe.outputDirectory.path == "/tmp/b")
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        let error = try refusal("{\n  \"sources\": [\"book.txt\",],\n}")
        guard case .syntax(let file, let line, let column, let message) = error else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(file.hasSuffix("recipe.json"))
        #expect(line == 2)
        #expect(column == 26)  // the "]" after the trailing comma
        #expect(message.contains("trailing comma"))
        #expect(error.localizedDescription.contains("recipe.json:2:26"))
    }

    @Test func unknownKeySuggestsTheNearestOne() throws {
        let error = try refusal(#"{"sources": ["book.txt"], "voice": {"rat": 170}}"#)
        #expect(
            error
                == .unknownKey(
                    file: directory.file("recipe.json").path, path: "voice", key: "rat", suggestion: "rate",
                    allowed: ["engine", "id", "rate", "pitch", "volume", "fallback"]))
        #expect(error.localizedDescription.contains("voice.rat"))
        #expect(error.localizedDescription.contains("Did you mean \"rate\"?"))
        let top = try refusal(#"{"source": ["book.txt"]}"#)
        #expect(top.path == "source")
        #expect(top.localizedDescription.contains("Did you mean \"sources\"?"))
    }

    @Test func wrongTypesNameThePathAndWhatWasFound() throws {
        let rate = try refusal(#"{"sources": ["book.txt"], "voice": {"rate": "fast"}}"#)
        #expect(rate.path == "voice.rate")
        #expect(
            rate.localizedDescription.contains(
                "expected an integer from 80 to 450 words per minute, found the string \"fast\""))
        let fractional = try refusal(#"{"sources": ["book.txt"], "build": {"jobs": 1.5}}"#)
        #expect(fractional.path == "build.jobs")
        let sources = try refusal(#"{"sources": "book.txt"}"#)
        #expect(sources.path == "sources")
        #expect(sources.localizedDescription.contains("expected an array of file paths, found the string \"book.txt\""))
        let voice = try refusal(#"{"sources": ["book.txt"], "voice": 42}"#)
        #expect(voice.path == "voice")
        #expect(voice.localizedDescription.contains("expected an object"))
    }

    @Test func valuesOutOfRangeSayWhatIsAllowed() throws {
        let rate = try refusal(#"{"sources": ["book.txt"], "voice": {"rate": 5000}}"#)
        #expect(
            rate
                == .invalidValue(
                    file: directory.file("recipe.json").path, path: "voice.rate", found: "the number 5000",
                    allowed: "an integer from 80 to 450 words per minute"))
        let format = try refusal(#"{"sources": ["book.txt"], "audio": {"format": "wave"}}"#)
        #expect(format.path == "audio.format")
        #expect(format.localizedDescription.contains("did you mean \"wav\"?"))
        let sampleRate = try refusal(#"{"sources": ["book.txt"], "audio": {"sampleRate": 12345}}"#)
        #expect(sampleRate.path == "audio.sampleRate")
        let engine = try refusal(#"{"sources": ["book.txt"], "voice": {"engine": "say"}}"#)
        #expect(engine.path == "voice.engine")
        let saveInterval = try refusal(#"{"sources": ["book.txt"], "build": {"saveInterval": 0}}"#)
        #expect(saveInterval.path == "build.saveInterval")
    }

    @Test func missingAndEmptySources() throws {
        #expect(
            try refusal(#"{}"#)
                == .missingKey(
                    file: directory.file("recipe.json").path, path: "sources",
                    expected: "\"sources\": [\"book.txt\"], a list of text or Markdown files"))
        #expect(try refusal(#"{"sources": []}"#).path == "sources")
        let missing = try refusal(#"{"sources": ["book.txt", "nope.txt"]}"#)
        #expect(
            missing
                == .missingSource(
                    file: directory.file("recipe.json").path, path: "sources[1]",
                    resolved: directory.file("nope.txt").path))
        #expect(missing.localizedDescription.contains("does not exist"))
    }

    @Test func sourceFormatsAndSpineSelections() throws {
        try directory.write("book.epub", "not yet a book")
        try directory.write("page.xhtml", "<html/>")
        let recipe = try load(
            #"{"sources": ["book.txt", "page.xhtml", {"path": "book.epub", "exclude": ["cover"], "include": ["notes"]}, {"path": "book.txt", "format": "html"}]}"#
        )
        #expect(recipe.sources.map(\.format) == [.text, .xhtml, .epub, .html])
        #expect(recipe.sources[2].exclude == ["cover"] && recipe.sources[2].include == ["notes"])
        let notEPUB = try refusal(#"{"sources": [{"path": "book.txt", "exclude": ["cover"]}]}"#)
        #expect(notEPUB.path == "sources[0].exclude")
        #expect(notEPUB.localizedDescription.contains("only on .epub sources"))
        let badList = try refusal(#"{"sources": [{"path": "book.epub", "exclude": "cover"}]}"#)
        #expect(badList.path == "sources[0].exclude")
        #expect(try refusal(#"{"sources": [{"path": "book.epub", "format": "pdf"}]}"#).path == "sources[0].format")
    }

    @Test func recipeThatIsNotAnObject() throws {
        let error = try refusal(#"["book.txt"]"#)
        #expect(
            error
                == .wrongType(
                    file: directory.file("recipe.json").path, path: "", expected: "an object",
                    found: "an array of 1 element"))
    }

    @Test func deeplyNestedJSONIsRefusedSafely() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = try refusal(#"{"sources": ["book.txt"], "title": "# + deep + "}")
        guard case .syntax(_, _, _, let message) = error else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(message.contains("nesting deeper than 64"))
    }

    @Test func duplicateKeysAreRefused() throws {
        let error = try refusal(#"{"sources": ["book.txt"], "sources": ["book.txt"]}"#)
        #expect(error.localizedDescription.contains("appears twice"))
    }

    @Test func pathsLeavingTheProjectAreRefused() throws {
        try directory.write("inside/book.txt", "Text.")
        let outside = try TemporaryDirectory("outside")
        try outside.write("secret.txt", "Not yours.")
        symlink(outside.file("secret.txt").path, directory.file("link.txt").path)
        let dots = try refusal(#"{"sources": ["../\#(outside.url.lastPathComponent)/secret.txt"]}"#)
        #expect(dots.path == "sources[0]")
        #expect(dots.localizedDescription.contains("outside the project"))
        // The library says what to do without naming the command line's flags; the CLI names them (HostileInputTests).
        #expect(dots.recoverySuggestion?.contains("trust this recipe") == true)
        #expect(!dots.localizedDescription.contains("--"))
        let linked = try refusal(#"{"sources": ["inside/book.txt", "link.txt"]}"#)
        #expect(linked.path == "sources[1]")
        let output = try refusal(#"{"sources": ["book.txt"], "output": {"directory": "../elsewhere"}}"#)
        #expect(output.path == "output.directory")
        #expect(
            try load(#"{"sources": ["link.txt"], "output": {"directory": "../x"}}"#, allowOutsidePaths: true).sources
                .count == 1)
        #expect(
            try load(#"{"sources": ["inside/book.txt"], "output": {"directory": "inside/../out"}}"#).sources.count == 1)
    }

    @Test func theProjectIsTheNearestFolderWithAMarker() throws {
        try directory.write("Package.swift", "// marker")
        try directory.write("recipes/book.txt", "Text.")
        try directory.write("samples/book.txt", "Text.")
        let file = try directory.write(
            "recipes/recipe.json", #"{"sources": ["../samples/book.txt"], "output": {"directory": "../out"}}"#)
        #expect(try RecipeLoader().load(from: file).sources.count == 1)
        #expect(
            ProjectBoundary(recipeFolder: directory.file("recipes")).root == ProjectBoundary.resolved(directory.url))
    }

    @Test func hugeRecipesAreRefusedBeforeParsing() throws {
        let padding = String(repeating: " ", count: RecipeLoader.maximumRecipeBytes)
        let error = try refusal(#"{"sources": ["book.txt"]}"# + padding)
        guard case .tooLarge = error else {
            Issue.record("expected tooLarge, got \(error)")
            return
        }
    }

    /// The schema is the settings types' key enums: every key they declare is documented in
    /// docs/recipe.md, every key the reference's tables document is one they declare, and a key
    /// of one object is refused in another with that object's own keys listed.
    @Test func theRecipeReferenceDocumentsExactlyTheKeysTheSettingsTypesDeclare() throws {
        func names<Key: RawRepresentable & CaseIterable>(_ type: Key.Type) -> [String] where Key.RawValue == String {
            Key.allCases.map(\.rawValue)
        }
        let objects: [String: [String]] = [
            "": names(Recipe.Key.self), "sources[i]": names(SourceFile.RecipeKey.self),
            "items[i]": names(InlineItem.RecipeKey.self),
            "split": names(SplitSettings.RecipeKey.self), "split.headings": names(HeadingPatterns.RecipeKey.self),
            "voice": names(VoiceSettings.RecipeKey.self), "audio": names(AudioSettings.RecipeKey.self),
            "build": names(BuildSettings.RecipeKey.self), "alignment": names(AlignmentSettings.RecipeKey.self),
            "exports": names(ExportSettings.RecipeKey.self),
            "exports.pauses": names(ExportSettings.PauseRecipeKey.self),
            "verify": names(VerifySettings.RecipeKey.self), "output": names(Recipe.OutputKey.self),
        ]
        // Objects documented in prose or a table of their own: their keys appear quoted or in backticks.
        let described: [String] =
            names(MasteringSettings.RecipeKey.self) + names(ExportSettings.CreditRecipeKey.self)
            + names(CommandEngineSettings.RecipeKey.self) + names(RemoteCacheSettings.RecipeKey.self)
            + names(SpeechServiceSettings.RecipeKey.self)
        let reference = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/recipe.md"), encoding: .utf8)
        let keyTable = reference.components(separatedBy: "\n## ")[0]
        var documented: Set<String> = []
        for line in keyTable.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            var parent = ""
            for (index, written) in cell.split(separator: ",").enumerated() {
                let name = written.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: "`"))
                // `items[i].title`, `.author`, `.body`: a leading dot continues the first path's object.
                let path = name.hasPrefix(".") ? parent + name : name
                if index == 0, let dot = path.lastIndex(of: ".") { parent = String(path[..<dot]) }
                documented.insert(path)
            }
        }
        #expect(documented.count > 40, "the reference's key table was not found: \(documented.count) rows")
        for (object, keys) in objects {
            for key in keys {
                let path = RecipeError.join(object, key)
                // An object is documented by its keys' rows (`split.unit`, …).
                #expect(
                    documented.contains(path) || documented.contains { $0.hasPrefix(path + ".") },
                    "\(path) is read but not documented in docs/recipe.md")
            }
        }
        let declared = Set(objects.flatMap { object, keys in keys.map { RecipeError.join(object, $0) } })
        for path in documented.sorted() {
            #expect(declared.contains(path), "docs/recipe.md documents \(path), which no settings type declares")
        }
        for key in described {
            #expect(
                reference.contains("`\(key)`") || reference.contains("\"\(key)\""),
                "\(key) is read but not documented in docs/recipe.md")
        }
        // The keys listed when one is refused are those of the object it was found in.
        let misplaced = try refusal(#"{"sources": ["book.txt"], "audio": {"unit": "sentence"}}"#)
        #expect(misplaced.path == "audio.unit")
        #expect(
            misplaced.localizedDescription.hasSuffix(
                "Allowed keys: \(names(AudioSettings.RecipeKey.self).joined(separator: ", "))."))
        let fallbackInCast = try refusal(
            #"{"sources": ["book.txt"], "cast": {"Ann": {"id": "en-gb", "fallback": "en-us"}}}"#)
        #expect(fallbackInCast.path == "cast.Ann.fallback")
    }
}
