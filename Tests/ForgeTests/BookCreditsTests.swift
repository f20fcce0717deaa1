import Foundation
import Testing

@testable import Forge

/// The credits' texts (defaults from the title, author and narrator in the book's language, texts
/// given, none), the recipe's `credits` and `narrator`, and the title and author read from a
/// Project Gutenberg header in shapes generated here.
@Suite("Book credits and declared authors")
struct BookCreditsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("credits")
    }

    func settings(language: String = "en", author: String? = "Bram Stoker", narrator: String? = nil) -> ExportSettings {
        var settings = ExportSettings(title: "Dracula", language: language)
        settings.credits = true
        settings.author = author
        settings.narrator = narrator ?? "espeak-ng:en-us?rate=175&pitch=50&volume=100"
        return settings
    }

    @Test func defaultCreditsNameTheBookItsAuthorAndItsReader() {
        let credits = BookCredits(settings())
        #expect(credits.opening == "Dracula, by Bram Stoker. Read by eSpeak NG.")
        #expect(credits.closing == "The end. You have been listening to Dracula, by Bram Stoker, read by eSpeak NG.")
        #expect(
            BookCredits(settings(narrator: "Ada Lovelace")).opening == "Dracula, by Bram Stoker. Read by Ada Lovelace.")
        #expect(BookCredits(settings(author: nil)).opening == "Dracula. Read by eSpeak NG.")
        #expect(BookCredits(settings(author: "  ")).opening == "Dracula. Read by eSpeak NG.")
        #expect(BookCredits(settings(language: "fr-FR")).opening == "Dracula, de Bram Stoker. Lu par eSpeak NG.")
        #expect(
            BookCredits(settings(language: "de")).closing?.hasPrefix("Ende. Sie hörten Dracula, von Bram Stoker")
                == true)
        // A language without a wording hears no English words.
        let finnish = BookCredits(settings(language: "fi"))
        #expect(finnish.opening == "Dracula. Bram Stoker. eSpeak NG.", "\(finnish)")
        #expect(finnish.closing == "Dracula. Bram Stoker. eSpeak NG.", "\(finnish)")
        // A voice of another engine is named by its engine.
        #expect(BookCredits.narratorName("piper:en_US-lessac-medium") == "Piper")
        #expect(BookCredits.narratorName("my-cloud:alloy?speed=1") == "my-cloud")
    }

    @Test func givenTextsReplaceTheDefaultsAndEmptyOnesLeaveACreditOut() {
        var given = settings()
        given.openingCredit = "Dracula. Read for you by Forge."
        #expect(BookCredits(given).opening == "Dracula. Read for you by Forge.")
        #expect(BookCredits(given).closing?.hasPrefix("The end.") == true)
        given.closingCredit = ""
        #expect(BookCredits(given).closing == nil && BookCredits(given).texts == ["Dracula. Read for you by Forge."])
        given.credits = false
        #expect(BookCredits(given).opening == nil && BookCredits(given).closing == nil)
        // Library settings have none unless asked: only a recipe turns them on by default.
        #expect(BookCredits(ExportSettings(formats: [.m4b, .acx])).texts.isEmpty)
    }

    func load(_ json: String) throws -> Recipe {
        try directory.write("book.txt", "Chapter 1\n\nHello there.\n")
        return try RecipeLoader().load(from: try directory.write("recipe.json", json))
    }

    @Test func aRecipeHasCreditsUnlessItSaysNoAndNamesItsNarrator() throws {
        let plain = try load(#"{ "sources": ["book.txt"], "author": "Jane Austen" }"#).exports
        #expect(plain.credits && BookCredits(plain).opening == "book, by Jane Austen. Read by eSpeak NG.")
        #expect(try load(#"{ "sources": ["book.txt"], "credits": false }"#).exports.credits == false)
        let named = try load(
            #"{ "sources": ["book.txt"], "title": "Emma", "narrator": "Ada", "credits": { "closing": false } }"#
        ).exports
        #expect(named.narrator == "Ada" && BookCredits(named).opening == "Emma. Read by Ada.", "\(named)")
        #expect(BookCredits(named).closing == nil)
        for (json, path) in [
            (#"{ "sources": ["book.txt"], "credits": "yes" }"#, "credits"),
            (#"{ "sources": ["book.txt"], "credits": { "opening": 3 } }"#, "credits.opening"),
            (#"{ "sources": ["book.txt"], "credits": { "opening": " " } }"#, "credits.opening"),
            (#"{ "sources": ["book.txt"], "credits": { "intro": "Hi" } }"#, "credits.intro"),
        ] {
            do {
                _ = try load(json)
                Issue.record("accepted \(json)")
            } catch let error as RecipeError {
                #expect(error.localizedDescription.contains(path), "\(error.localizedDescription)")
            }
        }
    }

    /// Headers as Gutenberg has written them over the years, generated: the title on one line or
    /// going on in indented lines, CRLF or LF, in plain text or in HTML paragraphs, with other
    /// fields around; the fields after the start marker, or in a file that is no Gutenberg file,
    /// are not the book's.
    @Test(arguments: 0..<12) func aGutenbergHeaderGivesTheTitleAndAuthor(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 7)
        let words = ["The", "History", "of", "Tom", "Jones,", "a", "Foundling", "Voyage", "Moon", "Green", "Gables"]
        let titleWords = (0..<Int.random(in: 2...14, using: &random)).map { _ in
            words[Int.random(in: 0..<words.count, using: &random)]
        }
        let title = titleWords.joined(separator: " ")
        let author = ["Henry Fielding", "Jules Verne", "L. M. Montgomery", "Mary Wollstonecraft (Godwin) Shelley"][
            seed % 4]
        // A long title goes on in the next line mid-phrase (before a word in lower case).
        let wrapAt =
            seed % 2 == 0
            ? (titleWords.indices.dropFirst(3).first { titleWords[$0].first?.isLowercase == true } ?? titleWords.count)
            : titleWords.count
        var titleLines = "Title: " + titleWords.prefix(wrapAt).joined(separator: " ")
        if wrapAt < titleWords.count { titleLines += "\n       " + titleWords.dropFirst(wrapAt).joined(separator: " ") }
        var lines = [
            "The Project Gutenberg EBook of \(title), by \(author)", "", "This eBook is for the use of anyone.", "",
            titleLines, "", "Author: \(author)", "", "Release Date: May 15, 2008 [EBook #\(seed)]", "",
            "*** START OF THIS PROJECT GUTENBERG EBOOK ***", "", "Title: Not This", "Author: Nor This",
        ]
        if seed % 3 == 1 { lines.insert("Translator: Someone Else", at: 6) }
        var head = lines.joined(separator: "\n")
        if seed % 4 == 3 {
            head =
                "<html><head><style>p { margin: 0 }</style></head><body>"
                + lines.map { "<p>\($0)</p>" }.joined(separator: "\n")
        }
        if seed % 5 == 2 { head = head.replacingOccurrences(of: "\n", with: "\r\n") }
        let header = try #require(GutenbergHeader(head: head), "\(head)")
        #expect(header.title == title, "\(head)")
        #expect(header.author == author)
        #expect(
            GutenbergHeader(
                head: head.replacingOccurrences(of: "Gutenberg", with: "Library", options: .caseInsensitive)) == nil)
    }

    /// A subtitle or an alternative title in the next line is joined as titles write it; a header
    /// whose fields are garbled (a URL glued to "Title:") gives them from its first line.
    @Test func subtitlesJoinAndAGarbledHeaderFallsBackToItsFirstLine() throws {
        func header(_ fields: String, first: String = "The Project Gutenberg EBook of X, by Y") -> GutenbergHeader? {
            GutenbergHeader(head: "\(first)\n\n\(fields)\n\n*** START OF THIS PROJECT GUTENBERG EBOOK X ***\n")
        }
        let dickens = header(
            "Title: A Tale of Two Cities\n       A Story of the French Revolution\n\nAuthor: Charles Dickens")
        #expect(dickens?.title == "A Tale of Two Cities: A Story of the French Revolution")
        #expect(dickens?.author == "Charles Dickens")
        #expect(
            header("Title: Frankenstein\n       or The Modern Prometheus")?.title
                == "Frankenstein; or The Modern Prometheus")
        let garbled = header(
            "with this eBook or online at www.gutenberg.orgTitle: The Yellow Wallpaper\n\nAuthor: Charlotte Perkins Gilman",
            first: "Project Gutenberg's The Yellow Wallpaper, by Charlotte Perkins Gilman")
        #expect(
            garbled?.title == "The Yellow Wallpaper" && garbled?.author == "Charlotte Perkins Gilman",
            "\(String(describing: garbled))")
        #expect(header("", first: "The Project Gutenberg EBook of Dracula, by Bram Stoker.")?.author == "Bram Stoker")
    }

    /// A recipe without title or author takes them from the first source's header, in its encoding.
    @Test func aRecipeTakesTitleAndAuthorFromTheSourcesHeader() throws {
        let latin1 = Data(
            "The Project Gutenberg EBook of Les Misérables\n\nTitle: Les Misérables\n\nAuthor: Victor Hugo\n\n*** START OF THIS PROJECT GUTENBERG EBOOK ***\n\nChapter 1\n\nHello.\n"
                .unicodeScalars.map { UInt8($0.value) })
        try latin1.write(to: directory.file("hugo.txt"))
        let exports = try RecipeLoader().load(
            from: try directory.write("recipe.json", #"{ "sources": ["hugo.txt"] }"#)
        ).exports
        #expect(exports.title == "Les Misérables" && exports.author == "Victor Hugo", "\(exports.title)")
        let given = try RecipeLoader().load(
            from: try directory.write("recipe.json", #"{ "sources": ["hugo.txt"], "title": "L", "author": "V. H." }"#)
        ).exports
        #expect(given.title == "L" && given.author == "V. H.")
    }
}
