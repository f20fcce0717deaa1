import Foundation
import Testing

@testable import Forge

/// What an edition adds about itself and the shapes its contents take beyond the generated lists:
/// notes on the text, bare-numeral contents, an unnumbered entry that reads as a sentence, a
/// section over chapters among parts, and a numbered heading whose title differs from its entry.
@Suite struct EditionMatterTests {
    func split(_ document: StructuredDocument) -> SplitResult {
        Splitter(settings: SplitSettings()).split([.document(SourceDocument(documents: [document]))])
    }

    static let romans = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
    static let titleWords = ["Storm", "Harbour", "Garden", "Night", "Journey", "Stranger", "Mill", "Promise"]

    /// "I Introduction" … "IV The Trap" (numerals without their full stops), an opening entry that
    /// reads as a sentence ("EXTRACTS (Supplied by a Sub-Sub-Librarian)."), and a note on the text at
    /// the end: every entry titles its chapter, and neither the list nor the note is spoken.
    @Test(arguments: 0..<16) func bareNumeralContentsWithAnOpeningEntryAndANoteOnTheText(seed: Int) throws {
        var generator = HeadingSeriesTests.Seeded(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        let count = Int.random(in: 3...9, using: &generator)
        let titles = (0..<count).map { _ in
            (0..<Int.random(in: 1...3, using: &generator)).map { _ in Self.titleWords.randomElement(using: &generator)!
            }
            .joined(separator: " ")
        }
        let opening = seed % 2 == 0 ? "EXTRACTS (Supplied by a Sub-Sub-Librarian)." : nil
        let gap = seed % 4 < 2 ? "\n" : ""
        let numbers = seed % 3 == 2 ? (1...10).map(String.init) : Self.romans
        let noteTitle = ["A NOTE ON THE TEXT", "Transcriber's Notes", "Note on the Text."][seed % 3]
        var text = "Produced by a volunteer.\n\n\nTHE BOOK\n\nby Somebody\n\n\nCONTENTS\n\n"
        if let opening { text += " \(opening)\n\(gap)" }
        for index in 0..<count { text += " \(numbers[index]) \(titles[index])\n\(gap)" }
        text += "\n\n\n"
        if let opening { text += "  \(opening)\n\nThe pale usher was ever dusting his old lexicons.\n\n" }
        for index in 0..<count {
            text += " \(numbers[index])\n\n\n \(titles[index])\n\n"
            text += "It was a day like any other when part \(index) began, and nobody thought it would end.\n\n"
        }
        text += "\(noteTitle)\n\nThis edition was set from the first printing, with its spelling kept.\n"
        let document = PlainTextReader().read(text, path: "book.txt")
        let result = split(document)
        let expected = (opening.map { [$0] } ?? []) + titles.enumerated().map { "\(numbers[$0]). \($1)" }
        #expect(result.chapters.map(\.title) == expected, "\(text)")
        let spoken = result.items.map(\.text).joined(separator: "\n")
        #expect(!spoken.contains("first printing") && !spoken.contains(noteTitle), "\(spoken)")
        #expect(!spoken.contains("Produced by"))
        #expect(document.unspoken.kinds.contains("editorial notes"))
        #expect(document.unspoken.kinds.contains("contents"))
    }

    /// A chapter line whose title follows two hyphens ("CHAPTER XXXVIII--CONCLUSION") is a chapter;
    /// "NOTE TO THE THIRD EDITION" in capitals is a section of the book, spoken.
    @Test func aChapterTitledAfterTwoHyphensAndANoteToAnEdition() {
        var text = "NOTE TO THE THIRD EDITION\n\nI avail myself of the opportunity to say a word.\n\n"
        for (index, title) in ["THE RED ROOM", "LOWOOD", "CONCLUSION"].enumerated() {
            text += "CHAPTER \(Self.romans[index])--\(title)\n\nThere was no possibility of taking a walk that day.\n\n"
        }
        let result = split(PlainTextReader().read(text, path: "book.txt"))
        #expect(
            result.chapters.map(\.title) == [
                "NOTE TO THE THIRD EDITION", "CHAPTER I--THE RED ROOM", "CHAPTER II--LOWOOD", "CHAPTER III--CONCLUSION",
            ])
    }

    /// A title page's credit line in capitals that reads as a section ("INTRODUCTION AND NOTES BY
    /// …") right over the section it credits heads no chapter of its own, nor is it spoken.
    @Test func aCreditLineOverTheSectionItCreditsIsTitlePage() {
        var text = "LETTERS\n\n\nINTRODUCTION AND NOTES BY WARREN BLAKE\n\n\n\nINTRODUCTION\n\n"
        text += "Hazlitt wrote that of the three notable writers of the age one was a farmer.\n\n"
        for number in ["I", "II"] { text += "CHAPTER \(number)\n\nWho would have thought it, my friend.\n\n" }
        let document = PlainTextReader().read(text, path: "book.txt")
        let result = split(document)
        #expect(result.chapters.map(\.title) == ["INTRODUCTION", "CHAPTER I", "CHAPTER II"])
        #expect(!result.items.contains { $0.text.contains("WARREN") })
    }

    /// Letters before the chapters ("Letter 1" … "Letter 4", then "Chapter 1"), each under its date
    /// line and over its signature: the letters are chapters, titled without their dates.
    @Test(arguments: 0..<4) func lettersBeforeTheChaptersAreChapters(seed: Int) {
        let months = ["Dec. 11th, 17--", "28th March, 17--", "July 7th, 1799", "August 5th, 17--", "May 2, 1801"]
        let letters = 3 + seed % 3
        var text = "Frankenstein\n\nby Mary Shelley\n\n\n"
        let prose =
            "You will rejoice to hear that no disaster has accompanied the commencement of an enterprise "
            + "which you have regarded with such evil forebodings. I arrived here yesterday, and my first task "
            + "is to assure my dear sister of my welfare and increasing confidence in the success of my undertaking."
        for number in 1...letters {
            text += "Letter \(number)\n\n\nSt. Petersburgh, \(months[(number + seed) % months.count])\n\n"
            text += "TO Mrs. Saville, England\n\n\(prose)\n\n\(prose)\n\nYour affectionate brother,\n  R. Walton\n\n\n"
        }
        for number in 1...3 { text += "Chapter \(number)\n\nI am by birth a Genevese. \(prose)\n\n\(prose)\n\n\n" }
        let result = split(PlainTextReader().read(text, path: "book.txt"))
        #expect(
            result.chapters.map(\.title) == (1...letters).map { "Letter \($0)" } + (1...3).map { "Chapter \($0)" },
            "\(text)")
    }

    /// A play's short opening sections before its first act (the persons, the scenes, the first
    /// performance) are one opening chapter, not three of a few seconds; the acts are chapters.
    @Test func aPlaysOpeningSectionsAreOneChapter() throws {
        var html = "<html><body><h1>The Importance of Being Earnest</h1><h2>THE PERSONS IN THE PLAY</h2>"
        html += "<p>John Worthing, J.P.<br/>Algernon Moncrieff<br/>Lady Bracknell</p><h2>THE SCENES OF THE PLAY</h2>"
        html +=
            "<p>ACT I. A Flat in Half-Moon Street.</p><h2>LONDON: ST. JAMES’S THEATRE</h2><p>February 14th, 1895</p>"
        for act in ["FIRST", "SECOND", "THIRD"] {
            html +=
                "<h2>\(act) ACT</h2><p>" + String(repeating: "Algernon is playing the piano in the room. ", count: 30)
            html += "</p>"
        }
        let result = split(try HTMLReader(mode: .html).read(html + "</body></html>", path: "play.html"))
        #expect(
            result.chapters.map(\.title) == ["THE PERSONS IN THE PLAY", "FIRST ACT", "SECOND ACT", "THIRD ACT"])
        #expect(result.items.contains { $0.text == "THE SCENES OF THE PLAY" })
    }

    /// An HTML contents of parts and an epilogue over chapters counting from one again: the epilogue
    /// is a part. A numbered heading that titles its chapter otherwise than its entry is the title
    /// (unless it misprints the entry with a word the prose never uses); a transcriber's note listed
    /// last is not a chapter.
    @Test func htmlContentsWithAnEpilogueOverChaptersAndHeadingsThatDiffer() throws {
        let toc = [
            ("b1", "BOOK ONE: 1805"), ("c1", "CHAPTER I"), ("c2", "The Emerald City"), ("b2", "BOOK TWO: 1806"),
            ("c3", "CHAPTER I"), ("c4", "The Engineer’s Thumb"), ("e1", "FIRST EPILOGUE: 1813 - 20"),
            ("c5", "CHAPTER I"), ("c6", "CHAPTER II"), ("tn", "Transcriber’s Note"),
        ]
        let headings = [
            "b1": "BOOK ONE: 1805", "c1": "CHAPTER I", "c2": "2. The Wonderful City", "b2": "BOOK TWO: 1806",
            "c3": "CHAPTER I", "c4": "2. THE ENGINEER’THUMB", "e1": "FIRST EPILOGUE: 1813 - 20", "c5": "CHAPTER I",
            "c6": "CHAPTER II", "tn": "Transcriber’s Note",
        ]
        var html = "<html><body><h1>WAR</h1><h2>Contents</h2>\n"
        for (id, title) in toc { html += "<p class=\"toc\"><a href=\"#\(id)\">\(title)</a></p>\n" }
        for (id, _) in toc {
            html += "<h2 id=\"\(id)\">\(headings[id]!)</h2>\n"
            guard !id.hasPrefix("b"), !id.hasPrefix("e") else { continue }
            let prose = id == "tn" ? "Spelling was kept as printed." : "The engineer walked to the city at dawn."
            html += "<p>\(prose) It was a long day and the road was wide and nobody spoke of it.</p>\n"
        }
        html += "</body></html>"
        let document = try HTMLReader(mode: .html).read(html, path: "book.html")
        let result = split(document)
        #expect(
            result.chapters.map { [$0.part ?? "-", $0.title] } == [
                ["Book One: 1805", "Book One: 1805 — CHAPTER I"],
                ["Book One: 1805", "Book One: 1805 — 2. The Wonderful City"],
                ["Book Two: 1806", "Book Two: 1806 — CHAPTER I"],
                ["Book Two: 1806", "Book Two: 1806 — The Engineer’s Thumb"],
                ["First Epilogue: 1813 - 20", "First Epilogue: 1813 - 20 — CHAPTER I"],
                ["First Epilogue: 1813 - 20", "First Epilogue: 1813 - 20 — CHAPTER II"],
            ])
        #expect(!result.items.contains { $0.text.contains("Spelling was kept") })
    }
}
