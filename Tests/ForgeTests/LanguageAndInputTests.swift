import Foundation
import Testing

@testable import Forge

/// Languages (voice and sentence rules, unspaced scripts) and the ways text arrives without a file:
/// a `-` source on standard input and `forge say`.
@Suite struct LanguageAndInputTests {
    @Test func theRecipeOrTheDocumentLanguagePicksTheVoice() throws {
        let directory = try TemporaryDirectory("language")
        try directory.write("book.txt", "Hallo.")
        try directory.write("book.html", "<html lang=\"fr-FR\"><body><p>Bonjour.</p></body></html>")
        func load(_ json: String) throws -> Recipe {
            try RecipeLoader().load(from: try directory.write("recipe.json", json))
        }
        let german = try load(#"{"language": "de", "sources": ["book.txt"]}"#)
        #expect(german.language == "de" && german.voice.id == "de")
        let english = try load(#"{"sources": ["book.txt"]}"#)
        #expect(english.language == "en" && english.voice.id == VoiceSettings.defaultID)
        let french = try load(#"{"sources": ["book.html"]}"#)
        #expect(
            french.language == "fr-FR" && french.voice.id == "fr-fr",
            "the document's lang is used when the recipe has none")
        let overridden = try load(#"{"language": "de", "sources": ["book.html"], "voice": {"id": "en-gb"}}"#)
        #expect(
            overridden.language == "de" && overridden.voice.id == "en-gb",
            "the recipe wins over the document, an explicit voice over both")
        #expect(VoiceSettings.defaultID(forLanguage: "zh-Hans") == "cmn")
        #expect(VoiceSettings.defaultID(forLanguage: "zh-HK") == "yue")
        // Every voice a language maps to is one espeak-ng has.
        let engine = try EspeakEngine()
        for language in ["de", "fr-FR", "zh", "zh-HK", "ja", "en-GB", "es", "pt-BR"] {
            #expect(engine.hasVoice(VoiceSettings.defaultID(forLanguage: language)), "\(language)")
        }
    }

    @Test func sentenceRulesFollowTheLanguage() {
        let text = "Das kostet z.B. zehn Euro. Vgl. Kapitel zwei. Herr Dr. Weber kam."
        func sentences(_ language: String) -> [String] {
            let result = Splitter(settings: SplitSettings(unit: .sentence), language: language).split([
                (path: "t.txt", format: .text, text: text)
            ])
            return result.items.map(\.text)
        }
        #expect(sentences("de") == ["Das kostet z.B. zehn Euro.", "Vgl. Kapitel zwei.", "Herr Dr. Weber kam."])
        #expect(sentences("en").count == 4, "English rules do not know \"Vgl.\"")
        let hindi = Splitter(settings: SplitSettings(unit: .sentence), language: "hi").split([
            (path: "t.txt", format: .text, text: "यह पहला वाक्य है। यह दूसरा है।")
        ])
        #expect(hindi.items.count == 2)
    }

    @Test func unspacedChineseIsSplitSpokenAndTimedCharacterByCharacter() throws {
        let text = "第一章\n\n我们今天去公园散步。天气很好，阳光明媚！你想一起去吗？\n\n这是一个没有空格的很长的句子用来测试分割器是否能够在字符之间安全地切分文本而不会破坏任何字符。\n"
        let project = try TestProject(
            book: text,
            recipe:
                #"{"language": "zh", "sources": ["book.txt"], "split": {"maxCharacters": 40}, "output": {"directory": "out"}}"#
        )
        let result = try project.build()
        #expect(result.status == 0, "\(result.errors)")
        let manifest = try project.manifest()
        #expect(try manifest.chapters().map(\.title) == ["第一章"])
        let items = try manifest.items()
        #expect(
            items.allSatisfy {
                $0.text.unicodeScalars.count <= 40 && $0.status == .done && $0.voice?.hasPrefix("espeak-ng:cmn") == true
            })
        // Nothing lost or broken at the cuts: the items hold every character of the text, in order.
        let spoken = items.map(\.text).joined().filter { !$0.isWhitespace }
        #expect(spoken == text.filter { !$0.isWhitespace })
        let words = try manifest.timedWords(inChapter: 1)
        let timed = items.filter { $0.kind == "paragraph" }.flatMap { words[$0.id] ?? [] }
        #expect(
            timed.count == text.unicodeScalars.filter(Tokenizer.isUnspacedScript).count - 3,
            "one timed word per character of the paragraphs")
        #expect(timed.allSatisfy { $0.token.text.unicodeScalars.count == 1 && $0.timing != nil })
    }

    @Test func aDashSourceReadsStandardInput() throws {
        let project = try TestProject(
            recipe: #"{"sources": [{"path": "-", "format": "markdown"}], "output": {"directory": "out"}}"#)
        let markdown = "# Piped In\n\nA *book* that arrived on standard input.\n"
        let result = try ForgeProcess.run(
            ["build", "recipe.json", "--json"], in: project.directory.url, standardInput: Data(markdown.utf8))
        #expect(result.status == 0, "\(result.errors)")
        let items = try project.manifest().items()
        #expect(items.map(\.text) == ["Piped In", "A book that arrived on standard input."])
        #expect(items.allSatisfy { $0.sourcePath == "-" && $0.status == .done })
        // Plain text on standard input: its chapter is named for where it came from.
        try project.write(recipe: #"{"sources": ["-"], "output": {"directory": "plain"}}"#)
        let plain = try ForgeProcess.run(
            ["split", "recipe.json", "--json"], in: project.directory.url,
            standardInput: Data("Just a line of text.\n".utf8))
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(
            try Manifest(directory: project.directory.file("plain"), create: false).chapters().map(\.title) == [
                "Standard input"
            ])
        try project.write(
            recipe: #"{"sources": [{"path": "-", "format": "markdown"}], "output": {"directory": "out"}}"#)
        // Nothing on standard input: a clear error, nothing written.
        try FileManager.default.removeItem(at: project.output)
        let empty = try ForgeProcess.run(["build", "recipe.json"], in: project.directory.url, standardInput: Data())
        #expect(empty.status == 2)
        #expect(empty.errors.contains("-: no speakable text"))
        #expect(!FileManager.default.fileExists(atPath: project.output.path))
    }

    @Test func forgeSaySpeaksAOneOffIntoTheFormatOfItsExtension() throws {
        let directory = try TemporaryDirectory("say")
        let wav = try ForgeProcess.run(
            ["say", "It is a truth universally acknowledged.", "-o", "truth.wav"], in: directory.url)
        #expect(wav.status == 0, "\(wav.errors)")
        let audio = try SoundFile.decode(fileAt: directory.file("truth.wav"))
        #expect(audio.sampleRate == 22050)
        #expect((1500...4500).contains(audio.durationMs), "\(audio.durationMs) ms")
        let piped = try ForgeProcess.run(
            ["say", "-", "-o", "piped.flac", "--language", "de", "--sample-rate", "16000"], in: directory.url,
            standardInput: Data("Guten Morgen, wie geht es Ihnen?".utf8))
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(piped.text.contains("espeak-ng:de?"))
        let resampled = try SoundFile.decode(fileAt: directory.file("piped.flac"))
        #expect(resampled.sampleRate == 16000)
        // Resampled, not relabelled: the same words last as long as at espeak-ng's own 22,050 Hz.
        let native = try ForgeProcess.run(
            ["say", "Guten Morgen, wie geht es Ihnen?", "-o", "native.wav", "--language", "de"], in: directory.url)
        #expect(native.status == 0)
        let nativeMs = try SoundFile.decode(fileAt: directory.file("native.wav")).durationMs
        #expect(
            abs(resampled.durationMs - nativeMs) <= nativeMs / 50,
            "\(resampled.durationMs) ms at 16 kHz, \(nativeMs) ms at 22.05 kHz")
        let badExtension = try ForgeProcess.run(["say", "Hello.", "-o", "hello.txt"], in: directory.url)
        #expect(badExtension.status == 2)
        #expect(badExtension.errors.contains(".wav, .flac, .ogg, .mp3 or .opus"))
        let noWords = try ForgeProcess.run(["say", "…", "-o", "nothing.wav"], in: directory.url)
        #expect(noWords.status != 0)
        #expect(!FileManager.default.fileExists(atPath: directory.file("nothing.wav").path))
    }
}
