import Foundation
import Testing
import ZIPFoundation

@testable import Forge

/// Item kinds, inline items, script sources, casts and lexicons, with real espeak-ng builds.
@Suite struct CastsAndKindsTests {
    static let script = """
        # Act One

        (A room in the castle. Enter HAMLET and OPHELIA.)

        HAMLET: Good morrow, Ophelia. (aside) She looks pale.
        OPHELIA: My lord, I have remembrances of yours
        that I have longed long to redeliver.
        [Thunder]

        The lights dim.

        (Exit OPHELIA,
        Her maid follows: weeping.) She sighs.
        HORATIO: Hail to your lordship!
        HAMLET: Horatio, or I do forget myself.
        """

    static func recipe(ophelia: String = #"{"id": "en-us+f2", "pitch": 70}"#, announce: String = "whenSpeakerChanges")
        -> String
    {
        """
        {"sources": ["play.script"], "output": {"directory": "out"},
         "cast": {"hamlet": "espeak-ng:en-gb-x-rp?rate=160", "Ophelia": \(ophelia)},
         "split": {"announceCharacters": "\(announce)"},
         "items": [
           {"id": "greeting", "text": "Welcome back!", "character": "OPHELIA"},
           {"id": "low-battery", "kind": "message", "text": "Battery low."},
           {"id": "news", "kind": "article", "title": "Storm Ahead", "author": "By Jane Doe", "body": "Rain tonight.\\n\\nWind tomorrow."}
         ]}
        """
    }

    @Test func scriptsAndInlineItemsAreSpokenByTheirCharactersVoices() throws {
        let project = try TestProject(recipe: Self.recipe())
        try project.directory.write("play.script", Self.script)
        let result = try project.build()
        #expect(result.status == 0, "\(result.errors)")
        let warnings = result.events("warning").compactMap { $0["message"] as? String }
        #expect(
            warnings.count == 1 && warnings[0].contains("\"HORATIO\"") && !warnings[0].contains("HAMLET"), "\(warnings)"
        )
        #expect(
            (result.events("warning").first?["file"] as? String)?.hasSuffix("/recipe.json") == true,
            "the warning names the recipe")
        try project.checkConsistency()
        let plan = try project.forge(["plan", "recipe.json", "--json"])
        let planned = try JSONSerialization.jsonObject(with: Data(plan.text.utf8)) as? [String: Any]
        #expect(
            planned?["uncastCharacters"] as? [String] == ["HORATIO"],
            "forge plan lists uncast characters before a build too")

        let items = try project.manifest().items().sorted { $0.ordinal < $1.ordinal }
        let rows = items.map { [$0.kind, $0.character ?? "-", $0.name ?? "-", $0.text] }
        #expect(
            rows == [
                ["heading", "-", "-", "Act One"],
                ["announcement", "-", "-", "Hamlet"],
                ["dialogue", "HAMLET", "-", "Good morrow, Ophelia. She looks pale."],
                ["announcement", "-", "-", "Ophelia"],
                [
                    "dialogue", "OPHELIA", "-",
                    "My lord, I have remembrances of yours that I have longed long to redeliver.",
                ],
                ["narration", "-", "-", "The lights dim."],
                ["narration", "-", "-", "She sighs."],
                ["announcement", "-", "-", "Horatio"],
                ["dialogue", "HORATIO", "-", "Hail to your lordship!"],
                ["announcement", "-", "-", "Hamlet"],
                ["dialogue", "HAMLET", "-", "Horatio, or I do forget myself."],
                ["announcement", "-", "greeting.announcement", "Ophelia"],
                ["dialogue", "OPHELIA", "greeting", "Welcome back!"],
                ["message", "-", "low-battery", "Battery low."],
                ["title", "-", "news.title", "Storm Ahead"],
                ["author", "-", "news.author", "By Jane Doe"],
                ["paragraph", "-", "news.body-1", "Rain tonight."],
                ["paragraph", "-", "news.body-2", "Wind tomorrow."],
            ])
        let narrator = "espeak-ng:en-us+klatt?rate=175&pitch=50&volume=100"
        for item in items {
            switch item.character?.lowercased() {
            case "hamlet": #expect(item.voice == "espeak-ng:en-gb-x-rp?rate=160&pitch=50&volume=100")
            case "ophelia":
                #expect(
                    item.voice == "espeak-ng:en-us+f2?rate=175&pitch=70&volume=100",
                    "cast names match whatever their case")
            default:
                #expect(
                    item.voice == narrator,
                    "\(item.text): the narrator speaks uncast characters, announcements and other kinds")
            }
        }

        // A new voice for one character rebuilds that character's lines and nothing else.
        let before = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.audioKey) })
        try project.write(recipe: Self.recipe(ophelia: #""espeak-ng:en-us+f4""#))
        let again = try project.build()
        #expect(again.status == 0, "\(again.errors)")
        let changed = try project.manifest().items().filter { before[$0.id] != $0.audioKey }
        #expect(
            Set(changed.map(\.text)) == [
                "My lord, I have remembrances of yours that I have longed long to redeliver.", "Welcome back!",
            ])
        #expect(again.summary?["synthesized"] as? Int == 2)

        // Exports mark dialogue and its speaker for stylesheets, and set titles as headings.
        #expect(try project.forge(["export", "out", "--format", "html"]).status == 0)
        let page = try String(
            contentsOf: project.output.appendingPathComponent("exports/html/chapter-001.html"), encoding: .utf8)
        #expect(page.contains("class=\"dialogue\" data-character=\"HAMLET\">") && page.contains("class=\"narration\">"))
        let inlinePage = try String(
            contentsOf: project.output.appendingPathComponent("exports/html/chapter-002.html"), encoding: .utf8)
        #expect(
            inlinePage.contains("<h2 id=") && inlinePage.contains("class=\"title\">"), "an article's title is a heading"
        )

        // Inline items are named by their ids in an audio pack.
        let pack = project.directory.file("pack.zip")
        #expect(try project.forge(["export", "out", "--pack", pack.path]).status == 0)
        let names = Set(try Archive(url: pack, accessMode: .read).map(\.path))
        for name in [
            "audio/items/greeting.wav", "audio/items/low-battery.wav", "audio/items/news.title.wav",
            "audio/items/news.body-2.wav",
            "timings/items/greeting.json", "audio/chapter-001/0001.wav",
        ] {
            #expect(names.contains(name), "\(name) missing from \(names.sorted())")
        }
    }

    @Test func scriptActsStartChaptersAndScenesAreHeadings() {
        let text =
            "ACT I\n\nSCENE 1. A hall.\n\nANN: Hello.\n\n### Later\n\nACT II\n\n(Enter BOB,\nACT III as a joke.)\nBOB: Bye."
        let split = Splitter(settings: SplitSettings()).split([.text(path: "p.script", format: .script, text: text)])
        #expect(split.chapters.map(\.title) == ["ACT I", "ACT II"])
        #expect(split.items.map(\.kind) == [.heading, .heading, .dialogue, .heading, .heading, .dialogue])
        #expect(split.items.map(\.text) == ["ACT I", "SCENE 1. A hall.", "Hello.", "Later", "ACT II", "Bye."])
        #expect(split.items.map(\.chapter) == [1, 1, 1, 1, 2, 2])
    }

    @Test func inlineItemsArePausedLikeParagraphsAndTheirPiecesLikeSentences() {
        let long = String(repeating: "This line is long enough to be cut. ", count: 4)
        let entries = [
            InlineItem(id: "a", text: long), InlineItem(id: "b", text: "Short."),
            InlineItem(id: "c", text: "Also short."),
        ]
        let split = Splitter(settings: SplitSettings(maxCharacters: 80)).split([
            .inline(entries, title: "Lines", path: "r.json")
        ])
        let records = split.items.map(ItemRecord.init(item:))
        #expect(records.map { $0.name ?? "" } == ["a-1", "a-2", "b", "c"])
        let settings = ExportSettings()
        let pauses = zip(records, records.dropFirst().map(Optional.some) + [nil]).map {
            TimelinePauses(settings).after($0, before: $1)
        }
        #expect(
            pauses == [
                settings.sentencePauseMs, settings.paragraphPauseMs, settings.paragraphPauseMs, settings.chapterPauseMs,
            ])
    }

    @Test func announcementsFollowTheRecipesChoice() throws {
        func announcements(_ choice: SplitSettings.Announcement) -> [String] {
            let items = [
                InlineItem(id: "a", text: "One.", character: "Ann"),
                InlineItem(id: "b", text: "Two.", character: "ann"),
                InlineItem(id: "c", text: "Three.", character: "Bob"),
                InlineItem(id: "d", kind: .narration, text: "Later."),
            ]
            let split = Splitter(settings: SplitSettings(announceCharacters: choice)).split([
                .inline(items, title: "Lines", path: "r.json")
            ])
            return split.items.filter { $0.kind == .announcement }.map(\.text)
        }
        #expect(announcements(.never) == [])
        #expect(
            announcements(.whenSpeakerChanges) == ["Ann", "Bob"],
            "the same character in another case is no change of speaker")
        #expect(announcements(.always) == ["Ann", "ann", "Bob"])
    }

    static func refusal(_ json: String, in directory: TemporaryDirectory) throws -> RecipeError? {
        let file = directory.file("recipe.json")
        try Data(json.utf8).write(to: file)
        do {
            _ = try RecipeLoader().load(from: file)
            return nil
        } catch {
            // Typed throws: the loader throws only RecipeError.
            return error
        }
    }

    @Test func inlineItemsAndCastsAreValidated() throws {
        let directory = try TemporaryDirectory("inline-refusals")
        let cases: [(json: String, path: String, message: String)] = [
            (#"{"items": [{"text": "Hi."}]}"#, "items[0].id", "required"),
            (
                #"{"items": [{"id": "a", "text": "Hi."}, {"id": "a", "text": "Yo."}]}"#, "items[1].id",
                "already the id of items[0]"
            ),
            (#"{"items": [{"id": "a/b", "text": "Hi."}]}"#, "items[0].id", "can name a file"),
            (
                #"{"items": [{"id": "a", "kind": "message", "text": "Hi.", "character": "Ann"}]}"#,
                "items[0].character", "only on dialogue"
            ),
            (#"{"items": [{"id": "a", "kind": "poem", "text": "Hi."}]}"#, "items[0].kind", "article"),
            (#"{"items": [{"id": "a", "text": "..."}]}"#, "items[0].text", "words to speak"),
            (
                #"{"items": [{"id": "a", "text": "Hi."}], "cast": {"Ann": "espeak-ng:en-gb", "ANN": "espeak-ng:en-us"}}"#,
                "cast.ANN", "same character"
            ),
            (
                #"{"items": [{"id": "a", "text": "Hi."}], "cast": {"Ann": "espeak-ng:en-gb?rate=1"}}"#, "cast.Ann",
                "outside 80–450"
            ),
            (
                #"{"items": [{"id": "a", "text": "Hi."}], "voice": {"fallback": "piper:joe"}}"#, "voice.fallback",
                "not one Forge runs"
            ),
        ]
        // A lexicon outside the project is refused like a source outside it.
        let outside = directory.url.deletingLastPathComponent().appendingPathComponent(
            "\(directory.url.lastPathComponent).lexicon")
        try Data("Darcy = DAR-see\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let lexiconCase = (
            json: #"{"items": [{"id": "a", "text": "Hi."}], "lexicon": "../\#(outside.lastPathComponent)"}"#,
            path: "lexicon", message: "outside the project"
        )
        for entry in cases + [lexiconCase] {
            let error = try Self.refusal(entry.json, in: directory)
            #expect(error?.path == entry.path, "\(entry.json): \(error?.localizedDescription ?? "accepted")")
            #expect(
                error?.localizedDescription.contains(entry.message) == true,
                "\(error?.localizedDescription ?? "accepted")")
        }
    }

    @Test func lexiconEntriesApplyToSpeechAndRebuildOnlyTheItemsWithTheirWord() throws {
        let book = """
            Mr. Darcy walked in.

            The room was quiet.

            Everyone looked at darcy and Bingley.

            Nobody spoke for a while.
            """
        func recipe(lexicon: Bool) -> String {
            #"{"sources": ["book.txt"], "output": {"directory": "out"}\#(lexicon ? #", "lexicon": "words.lexicon""# : "")}"#
        }
        let project = try TestProject(book: book, recipe: recipe(lexicon: false))
        #expect(try project.build().status == 0)
        try project.directory.write("words.lexicon", "# names\nDarcy = DAR-see\n")
        try project.write(recipe: recipe(lexicon: true))
        let first = try project.build()
        #expect(first.status == 0, "\(first.errors)")
        #expect(
            first.summary?["synthesized"] as? Int == 2, "only the two items with Darcy (either case) are spoken again")

        // The audio is the respelling's. espeak-ng's output depends on what its process spoke before, so the
        // reference is a fresh process's first utterance, as this item was its worker's first.
        let manifest = try project.manifest()
        let darcy = try #require(try manifest.items().first { $0.text.hasPrefix("Mr. Darcy") })
        #expect(try project.forge(["say", "Mr. DAR-see walked in.", "-o", "respelled.wav"]).status == 0)
        let respelled = try SoundFile.frameCount(fileAt: project.directory.file("respelled.wav"))
        #expect(
            abs((darcy.durationMs ?? 0) - respelled.frames * 1000 / respelled.sampleRate) <= 1,
            "\(String(describing: darcy.durationMs)) vs \(respelled)")

        let entries = "Darcy = DARR-see\nBingley = [[b'INli]]\nElizabeth = Eliza-beth\n"
        try project.directory.write("words.lexicon", entries)
        let second = try project.build()
        #expect(second.status == 0, "\(second.errors)")
        #expect(
            second.summary?["synthesized"] as? Int == 2,
            "an edited entry and a new one rebuild the items with those words; an unused entry nothing")
        try project.checkConsistency()
        let bingley = try #require(try project.manifest().items().first { $0.text.contains("Bingley") })
        let spokenText = try Lexicon.parse(entries, file: "check").render(bingley.text).spoken
        let asPhonemes = try EspeakEngine().synthesize(
            spokenText, voice: VoiceSettings(), itemID: "check", phonemeInput: true)
        let asLetters = try EspeakEngine().synthesize(spokenText, voice: VoiceSettings(), itemID: "check")
        // This item was its worker's second utterance, and the references come from this test process: compare
        // with both readings (about 450 ms apart) rather than exactly, as history moves an utterance by tens of ms.
        let duration = bingley.durationMs ?? 0
        #expect(abs(asPhonemes.durationMs - asLetters.durationMs) > 200)
        #expect(
            abs(duration - asPhonemes.durationMs) * 3 < abs(duration - asLetters.durationMs),
            "the phonemes are read as phonemes, not as letters")
        #expect(try project.manifest().timings(of: bingley.id).allSatisfy { $0 != nil })

        try project.directory.write("words.lexicon", "Darcy DAR-see\n")
        let refused = try project.build()
        #expect(refused.status == 2)
        #expect(refused.errors.contains("words.lexicon:1") && refused.errors.contains("no \"=\""), "\(refused.errors)")
    }

    @Test func lexiconRenderingMapsEveryWordToWhatIsSpoken() throws {
        let lexicon = try Lexicon.parse("Darcy = DAR-see\nBingley = [[b'INli]]\n", file: "x")
        let rendering = lexicon.render("Darcy met [Bingley] and DARCY's friend.")
        #expect(
            rendering.spoken == "DAR-see met ([[b'INli]]] and DARCY's friend.",
            "a bracket of the text itself cannot open phonemes")
        #expect(rendering.usesPhonemes)
        #expect(rendering.words.map(\.text) == ["DAR-see", "met", "[[b'INli]]", "and", "DARCY's", "friend"])
        let scalars = Array(rendering.spoken.unicodeScalars)
        for word in rendering.words {
            #expect(String(String.UnicodeScalarView(scalars[word.start..<word.end])) == word.text)
        }
        #expect(lexicon.render("Nothing here.").isChanged == false)
        #expect(throws: LexiconError.duplicate(file: "x", word: "darcy", firstLine: 1, line: 2)) {
            try Lexicon.parse("Darcy = a\ndarcy = b", file: "x")
        }
    }
}
