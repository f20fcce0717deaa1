import Foundation
import Testing

@testable import Forge

@Suite("Splitting text into chapters, items and words")
struct SplitterTests {
    func split(
        _ text: String, format: SourceFile.Format = .text, maxCharacters: Int = 1000,
        unit: SplitSettings.Unit = .paragraph
    ) -> SplitResult {
        Splitter(settings: SplitSettings(unit: unit, maxCharacters: maxCharacters)).split([("book.txt", format, text)])
    }

    /// Items' texts, words and sentences are cut from arrays of scalars with `String(scalars:)`.
    @Test func textCutFromScalarsIsTheStandardLibrarysStringInEveryScript() {
        let samples = [
            "", "Plain ASCII, with punctuation!", "café — naïve “quotes”", "日本語のテキスト", "emoji 🎉👩‍👩‍👧 and ✓",
            "\u{0}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}",
        ]
        for sample in samples {
            let scalars = Array(sample.unicodeScalars)
            for start in stride(from: 0, through: scalars.count, by: 3) {
                for end in start...scalars.count {
                    var expected = String.UnicodeScalarView()
                    expected.append(contentsOf: scalars[start..<end])
                    let cut = String(scalars: scalars[start..<end])
                    #expect(
                        cut == String(expected) && Array(cut.utf8) == Array(String(expected).utf8),
                        "\(sample) \(start)..<\(end)")
                }
            }
        }
    }

    @Test func chapterLinesStartChapters() {
        let result = split(Fixtures.shortBook)
        #expect(result.chapters.map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(
            result.items.map(\.kind) == [
                .heading, .paragraph, .paragraph, .paragraph, .heading, .paragraph, .paragraph,
            ])
        #expect(result.items.map(\.chapter) == [1, 1, 1, 1, 2, 2, 2])
        #expect(result.items.map(\.ordinal) == Array(1...7))
        // Hard-wrapped lines are joined with single spaces.
        #expect(
            result.items[1].text
                == "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife."
        )
    }

    @Test func romanAndWordChapterNumbers() {
        let result = split("CHAPTER XII.\n\nText here.\n\nChapter the Last\n\nMore text.\n\nChapters are fun to write.")
        #expect(result.chapters.map(\.title) == ["CHAPTER XII.", "Chapter the Last"])
        #expect(result.items.last?.text == "Chapters are fun to write.")
    }

    /// A book in parts: chapters carry their part's title, a part heading joins its first chapter
    /// (no chapter of its own, nothing folded into the previous one), and a part with text of its
    /// own before its first chapter keeps a chapter for it. The EPUB lists chapters under parts.
    @Test func partsAboveChaptersMakeTwoLevelTitlesAndContents() throws {
        let text = """
            BOOK ONE


            Chapter 1

            First text.

            CHAPTER II.

            Second text.

            PART II

            A word before the chapters, long enough to be heard as the part's own: the part opens with it, and its
            first chapter follows, as a listener expects of a book whose parts have prefaces of their own.

            Chapter 1

            Third text.

            PART III

            An epigraph.

            Chapter 1

            Fourth text.
            """
        let result = split(text)
        #expect(
            result.chapters.map(\.title) == [
                "Book One — Chapter 1", "Book One — CHAPTER II.", "Part II", "Part II — Chapter 1",
                "Part III — Chapter 1",
            ])
        // A line or two under a part's heading (an epigraph) opens its first chapter: no chapter of a few seconds.
        #expect(result.items.filter { $0.kind == .heading }.map(\.chapter) == [1, 1, 2, 3, 4, 5, 5])
        // Without part lines, chapter lines and a one-line "Book one" mention stay as they were.
        #expect(split("Chapter 1\n\nText.\n\nChapter 2\n\nMore.").chapters.map(\.title) == ["Chapter 1", "Chapter 2"])

        let timelines = result.chapters.map {
            ChapterTimeline(chapter: $0, items: [], sampleRate: 22050, durationMs: 0, totalSamples: 0)
        }
        let navigation = XMLElements(Data(MediaOverlayBook.navigation(timelines, settings: ExportSettings()).utf8))
        #expect(navigation.named("ol").count == 4, "the book's list and one per part")
        #expect(navigation.named("a").count == 8)
        // The HTML read-along's contents page has the same two levels.
        let links = result.chapters.map {
            ReadAlongPage.ChapterLink(fileStem: "chapter-\($0.ordinal)", title: $0.title, part: $0.part)
        }
        let contents = ReadAlongPage.contents(title: "Book", language: "en", chapters: links)
        #expect(
            contents.components(separatedBy: "<ol>").count - 1 == 4 && contents.contains(">Book One</a>")
                && contents.contains(">CHAPTER II.</a>"))
        // A dash in a chapter's own title is not a part: the contents nest by the chapters' parts.
        let dashed = split("Chapter 1 — The Ball\n\nText.\n\nChapter 2 — The Letter\n\nMore.").chapters
        #expect(
            dashed.map(\.title) == ["Chapter 1 — The Ball", "Chapter 2 — The Letter"]
                && dashed.allSatisfy { $0.part == nil })
        let flat = ReadAlongPage.contents(
            title: "Book", language: "en",
            chapters: dashed.map {
                ReadAlongPage.ChapterLink(fileStem: "c\($0.ordinal)", title: $0.title, part: $0.part)
            })
        #expect(
            flat.components(separatedBy: "<ol>").count - 1 == 1 && flat.contains(">Chapter 2 — The Letter</a>"),
            "\(flat)")
    }

    /// Parts and epilogues in the shapes a long novel has them (issue 37: "BOOK FIVE: 1806 - 07" and
    /// the epilogues were not recognised, so 41 chapter titles repeated): every chapter title is unique.
    @Test func partsWithSubtitlesAndEpiloguesHoldTheirChapters() {
        let text = """
            BOOK ONE: 1805

            CHAPTER I

            Text one.

            CHAPTER II

            Text two.

            BOOK FIVE: 1806 - 07

            CHAPTER I

            Text three.

            PART THE FIRST

            CHAPTER I

            Text four.

            FIRST EPILOGUE: 1813 - 20

            CHAPTER I

            Text five.

            SECOND EPILOGUE

            CHAPTER I

            Text six.
            """
        let titles = split(text).chapters.map(\.title)
        #expect(
            titles == [
                "Book One: 1805 — CHAPTER I", "Book One: 1805 — CHAPTER II", "Book Five: 1806 - 07 — CHAPTER I",
                "Part The First — CHAPTER I",
                "First Epilogue: 1813 - 20 — CHAPTER I", "Second Epilogue — CHAPTER I",
            ])
        #expect(Set(titles).count == titles.count)
        #expect(
            split(text).chapters.map(\.part) == [
                "Book One: 1805", "Book One: 1805", "Book Five: 1806 - 07", "Part The First",
                "First Epilogue: 1813 - 20", "Second Epilogue",
            ])
        #expect(split("Chapter 1\n\nText.").chapters.map(\.part) == [nil])
    }

    /// Markdown (and HTML) books in parts: two or more `#` headings with `##` chapters under them are
    /// parts, so repeated chapter numbers get unique titles; a single `#` above the chapters is the
    /// book's title, not a part.
    @Test func markdownAndHTMLPartsHoldTheirChapters() throws {
        let markdown =
            "# Book One\n\n## Chapter 1\n\nOne.\n\n## Chapter 2\n\nTwo.\n\n# Book Two\n\n## Chapter 1\n\nThree.\n"
        let result = split(markdown, format: .markdown)
        #expect(
            result.chapters.map(\.title) == ["Book One — Chapter 1", "Book One — Chapter 2", "Book Two — Chapter 1"])
        #expect(result.chapters.map(\.part) == ["Book One", "Book One", "Book Two"])
        // A prologue and an epilogue at the parts' level stand beside the parts, not inside the one before,
        // and are no parts themselves (a part holding only itself would be listed twice).
        let sections = split("# Prologue\n\nZero.\n\n" + markdown + "\n# Epilogue\n\nFour.\n", format: .markdown)
        #expect(
            sections.chapters.map(\.title) == [
                "Prologue", "Book One — Chapter 1", "Book One — Chapter 2", "Book Two — Chapter 1", "Epilogue",
            ])
        #expect(sections.chapters.map(\.part) == [nil, "Book One", "Book One", "Book Two", nil])
        let titled = split("# The Book\n\n## Chapter 1\n\nOne.\n\n## Chapter 2\n\nTwo.\n", format: .markdown)
        #expect(titled.chapters.allSatisfy { $0.part == nil }, "\(titled.chapters)")
        let html =
            "<html><body><h1>Part I</h1><h2>Chapter 1</h2><p>One.</p><h1>Part II</h1><h2>Chapter 1</h2><p>Two.</p></body></html>"
        let document = try HTMLReader(mode: .html).read(html, path: "book.html")
        let fromHTML = Splitter(settings: SplitSettings()).split([.structured([document], chaptersFromContents: false)])
        #expect(
            fromHTML.chapters.map(\.title) == ["Part I — Chapter 1", "Part II — Chapter 1"], "\(fromHTML.chapters)")
        // Every heading at one level, as HTML made from plain text has them: parts by their shape.
        let flat =
            "<html><body><h2>BOOK ONE: 1805</h2><h2>CHAPTER I</h2><p>One.</p><h2>CHAPTER II</h2><p>Two.</p>"
            + "<h2>BOOK TWO: 1805</h2><h2>CHAPTER I</h2><p>Three.</p><h2>EPILOGUE</h2><p>Four.</p></body></html>"
        let oneLevel = Splitter(settings: SplitSettings()).split([
            .structured([try HTMLReader(mode: .html).read(flat, path: "book.html")], chaptersFromContents: false)
        ])
        #expect(
            oneLevel.chapters.map(\.title) == [
                "Book One: 1805 — CHAPTER I", "Book One: 1805 — CHAPTER II", "Book Two: 1805 — CHAPTER I", "Epilogue",
            ], "\(oneLevel.chapters)")
        #expect(oneLevel.chapters.map(\.part) == ["Book One: 1805", "Book One: 1805", "Book Two: 1805", nil])
        let flatMarkdown = split(
            "# BOOK ONE\n\n# CHAPTER I\n\nOne.\n\n# BOOK TWO\n\n# CHAPTER I\n\nTwo.\n", format: .markdown)
        #expect(
            flatMarkdown.chapters.map(\.title) == ["Book One — CHAPTER I", "Book Two — CHAPTER I"],
            "\(flatMarkdown.chapters)")
        // `"headings": "markdown"` takes the markup's levels only: no part found by its words.
        var markupOnly = SplitSettings()
        markupOnly.headingsFromMarkup = true
        let byLevels = Splitter(settings: markupOnly).split([
            ("book.md", .markdown, "# BOOK ONE\n\n# CHAPTER I\n\nOne.\n\n# BOOK TWO\n\n# CHAPTER I\n\nTwo.\n")
        ])
        #expect(byLevels.chapters.allSatisfy { $0.part == nil }, "\(byLevels.chapters)")
        let epilogue = try HTMLReader(mode: .html).read(
            html.replacingOccurrences(of: "</body>", with: "<h1>Epilogue</h1><p>Three.</p></body>"), path: "book.html")
        let withEpilogue = Splitter(settings: SplitSettings()).split([
            .structured([epilogue], chaptersFromContents: false)
        ])
        #expect(withEpilogue.chapters.map(\.part) == ["Part I", "Part II", nil], "\(withEpilogue.chapters)")
    }

    /// A contents table whose label links ("CHAPTER V") have their titles in a row of their own,
    /// under a "Page" column heading and beside page-number links (Gutenberg's Dracula): the titles
    /// are the chapters', and a page number's anchor, even one that lands on the book's title, is
    /// no chapter.
    @Test func contentsTableTitlesInRowsOfTheirOwn() throws {
        var rows = ""
        var body = "<p><a name=\"page_001\"></a>&nbsp;</p><h1>D&nbsp;R&nbsp;A&nbsp;C&nbsp;U&nbsp;L&nbsp;A</h1><hr/>"
        let titles = ["Jonathan Harker’s Journal", "Letters—Lucy and Mina", "Mina Murray’s Journal"]
        for (index, title) in titles.enumerated() {
            let numeral = ["I", "II", "III"][index]
            rows +=
                "<tr><td colspan=\"2\"><a href=\"#CHAPTER_\(numeral)\">C<small>HAPTER</small> \(numeral)</a></td></tr>"
            if index == 0 { rows += "<tr><td colspan=\"2\">Page</td></tr>" }
            rows += "<tr><td>\(title)</td><td><a href=\"#page_00\(index + 1)\">\(index * 14 + 1)</a></td></tr>"
            body += "<h2><a name=\"CHAPTER_\(numeral)\"></a>CHAPTER \(numeral)</h2>"
            body += String(
                repeating: "<p>It was a long day of travel, and the road went on through the hills.</p>", count: 6)
        }
        let html =
            "<html><body><h2>CONTENTS</h2><table>\(rows)</table>\(body)</body></html>"
        let document = try HTMLReader(mode: .html).read(html, path: "book.html")
        let split = Splitter(settings: SplitSettings()).split([.structured([document], chaptersFromContents: false)])
        #expect(
            split.chapters.map(\.title) == [
                "CHAPTER I Jonathan Harker’s Journal", "CHAPTER II Letters—Lucy and Mina",
                "CHAPTER III Mina Murray’s Journal",
            ], "\(split.chapters)")
        #expect(!split.items.contains { $0.text.contains("D R A C U L A") || $0.text.contains("Page") })
        #expect(
            HTMLReader.isPageAnchor("page_014") && HTMLReader.isPageAnchor("Page_7") && HTMLReader.isPageAnchor("pg23"))
        #expect(
            !HTMLReader.isPageAnchor("part1") && !HTMLReader.isPageAnchor("preface")
                && !HTMLReader.isPageAnchor("CHAPTER_I"))
    }

    /// A contents list without a "CONTENTS" line (numbered titles counting from one, unnumbered
    /// ones either side) is the chapter list: "ADVENTURE I. A SCANDAL IN BOHEMIA" is found for
    /// "I. A Scandal in Bohemia", a numeral over its title for "I. Of Our Spiritual Strivings", and
    /// the numerals that count again inside a listed chapter are its sections, not chapters.
    @Test func anUntitledContentsListIsTheChapterList() {
        let story = "It was a long day of travel, and the road went on and on through the hills until night fell."
        let titles = [
            "A Scandal in Bohemia", "The Red-headed League", "A Case of Identity", "The Five Orange Pips",
            "The Blue Carbuncle",
        ]
        let numerals = ["I", "II", "III", "IV", "V"]
        var text = "THE ADVENTURES\n\n\n\n        The Preface\n"
        for (numeral, title) in zip(numerals, titles) { text += "   \(numeral).  \(title)\n" }
        text += "        The Afterword\n\n\n\nThe Preface\n\n\(story)\n\n"
        for (index, (numeral, title)) in zip(numerals, titles).enumerated() {
            if index == 0 {
                text += "ADVENTURE I. \(title.uppercased())\n\nI.\n\n\(story)\n\nII.\n\n\(story)\n\n"
            } else {
                text += "\(numeral)\n\n\(title)\n\n\(story)\n\n\(story)\n\n"
            }
        }
        text += "The Afterword\n\n\(story)\n"
        let result = split(text)
        #expect(
            result.chapters.map(\.title) == ["The Preface"] + zip(numerals, titles).map { "\($0). \($1)" } + [
                "The Afterword"
            ],
            "\(result.chapters.map(\.title))")
        #expect(result.chapters.allSatisfy { $0.part == nil })
    }

    /// Chapters titled in capitals and nothing else, one of them a two-letter word ("OM", in
    /// Siddhartha); a line of dialogue in capitals ("NO.") is not one.
    @Test func capitalTitlesAsShortAsTwoLettersAreChapters() {
        let page = String(
            repeating: "He walked along the river for a long time and listened to its many voices. ", count: 40)
        let titles = ["THE SON OF THE BRAHMAN", "GOTAMA", "OM", "GOVINDA"]
        var text = ""
        for (index, title) in titles.enumerated() {
            text += "\(title)\n\n\(page)\n\n"
            if index == 1 { text += "NO.\n\n\(page)\n\n" }
        }
        let result = split(text)
        #expect(result.chapters.map(\.title) == titles, "\(result.chapters.map(\.title))")
    }

    /// Chapters and sections of a book without parts: a preface, chapter lines with titles (one
    /// wrapping onto a second line), an epilogue and an appendix; and one-line paragraphs that only
    /// look like them stay text.
    @Test func sectionsAndWrappedTitlesStartChaptersAndLookAlikesDoNot() {
        let text = """
            PREFACE

            Text one.

            CHAPTER 1. Of Whales in Paint

            Text two.

            CHAPTER 12. Of the Less Likely Pictures of Ships, and the True
            Pictures of Harbour Scenes.

            Text three.

            I.

            Text four.

            II

            Text five.

            Book two was better.

            I

            Part of me wanted to stay.

            Introduction to the new edition was written later by her son.

            Volume 3 of the encyclopedia lay open.

            Epilogue

            Text six.

            APPENDIX A

            Text seven.
            """
        let result = split(text)
        // Two bare numerals with a few words between them are no series of headings (``CounterHeadings``
        // finds those): here they stay text, with the other look-alikes.
        #expect(
            result.chapters.map(\.title) == [
                "PREFACE", "CHAPTER 1. Of Whales in Paint",
                "CHAPTER 12. Of the Less Likely Pictures of Ships, and the True Pictures of Harbour Scenes.",
                "Epilogue", "APPENDIX A",
            ])
        let chapterThree = result.items.filter { $0.chapter == 3 }.map(\.text)
        #expect(chapterThree.count == 11, "the look-alikes stay text in chapter 12: \(chapterThree)")
    }

    /// Project Gutenberg's header and footer are dropped unless the recipe keeps them, and a table
    /// of contents at the front — one paragraph of entries, or an entry per paragraph — is not read
    /// aloud nor taken for chapters.
    @Test func gutenbergMatterAndContentsAreNotReadAloud() {
        let body = """
            PRIDE AND PREJUDICE

            CONTENTS

            CHAPTER I
            CHAPTER II
            CHAPTER III

            CHAPTER I

            It is a truth universally acknowledged.

            CHAPTER II

            Mr. Bennet was among the earliest.

            CHAPTER III

            Not all that Mrs. Bennet could ask.
            """
        let text = """
            The Project Gutenberg eBook of Pride and Prejudice

            This eBook is for the use of anyone anywhere in the United States.

            *** START OF THE PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***

            \(body)

            *** END OF THE PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***

            Updated editions will replace the previous one.
            """
        let dropped = split(text)
        // The title page before the first chapter is front matter: not spoken, no chapter of its own.
        #expect(dropped.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II", "CHAPTER III"])
        #expect(
            dropped.items.map(\.text) == [
                "CHAPTER I", "It is a truth universally acknowledged.", "CHAPTER II",
                "Mr. Bennet was among the earliest.", "CHAPTER III", "Not all that Mrs. Bennet could ask.",
            ])
        let kept = Splitter(settings: SplitSettings()).split([
            .document(
                SourceDocument(documents: [
                    PlainTextReader(keepsGutenbergMatter: true).read(text, path: "book.txt")
                ]))
        ])
        #expect(kept.items.first?.text == "The Project Gutenberg eBook of Pride and Prejudice")
        #expect(kept.items.last?.text == "Updated editions will replace the previous one.")

        // One entry per paragraph: the run of headings before the first chapter's text.
        let spaced = body.replacingOccurrences(
            of: "CHAPTER I\nCHAPTER II\nCHAPTER III", with: "CHAPTER I\n\nCHAPTER II\n\nCHAPTER III")
        let result = split(spaced)
        #expect(
            result.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II", "CHAPTER III"],
            "\(result.items.map(\.text))")
        #expect(!result.items.contains { $0.text == "CONTENTS" })
        // A book that opens with a volume, a part and a chapter is not a table of contents.
        let opening = split("VOLUME I\n\nPART ONE\n\nCHAPTER 1\n\nText.\n\nPART TWO\n\nCHAPTER 1\n\nMore.")
        #expect(
            opening.chapters.map(\.title) == ["Volume I", "Part One — CHAPTER 1", "Part Two — CHAPTER 1"],
            "\(opening.chapters)")
    }

    /// `forge plan` lists chapters under the part the splitter recorded (`Chapter.part`), not by
    /// their titles: a part of one chapter is listed as a part, an epilogue beside the parts heads
    /// its own row, and its JSON carries each chapter's part.
    @Test func planListsEachChapterUnderItsPart() throws {
        let book =
            "BOOK ONE\n\nCHAPTER 1\n\nOne.\n\nCHAPTER 2\n\nTwo.\n\nBOOK TWO\n\nCHAPTER 1\n\nThree.\n\nEPILOGUE\n\nFour.\n"
        let project = try TestProject(book: book, recipe: Fixtures.recipe(extra: #""exports": []"#))
        let table = try project.forge(["plan", "recipe.json"]).lines
        let rows = Array(table.drop { !$0.hasPrefix("  #  chapter") }.dropFirst().prefix(6)).map {
            $0.replacingOccurrences(of: #"\s+\d+\s+\d+\s+~.*$"#, with: "", options: .regularExpression)
        }
        #expect(
            rows == [
                "     Book One", "  1    CHAPTER 1", "  2    CHAPTER 2", "     Book Two", "  3    CHAPTER 1",
                "  4  Epilogue",
            ], "\(table)")
        let plan = try project.forge(["plan", "recipe.json", "--json"])
        let fields = try JSONSerialization.jsonObject(with: Data(plan.text.utf8)) as? [String: Any]
        let parts = (fields?["chapters"] as? [[String: Any]] ?? []).map { $0["part"] as? String }
        #expect(parts == ["Book One", "Book One", "Book Two", nil], "\(plan.text)")
    }

    /// Project Gutenberg's HTML: its boilerplate sections (today's files) or its header and licence
    /// as text around the START/END lines (older ones) are not read aloud, unless the recipe keeps them.
    @Test func gutenbergHTMLMatterIsNotReadAloud() throws {
        let chapters =
            "<h2>CHAPTER I</h2><p id=\"truth\">It is a truth universally acknowledged.</p><h2>CHAPTER II</h2><p>Mr. Bennet was among the earliest.</p>"
        let modern = """
            <html><body><section class="pg-boilerplate pgheader" id="pg-header" lang="en"><h2>The Project Gutenberg eBook of Pride and Prejudice</h2>
            <p>This eBook is for the use of anyone anywhere.</p><div id="pg-start-separator"><span>*** START OF THE PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***</span></div></section>
            \(chapters)
            <section class="pg-boilerplate pgheader" id="pg-footer" lang="en"><div id="pg-end-separator"><span>*** END OF THE PROJECT GUTENBERG EBOOK ***</span></div><p>Updated editions will replace the previous one.</p></section></body></html>
            """
        let older = """
            <html><body><pre>The Project Gutenberg EBook of Pride and Prejudice
            This eBook is for the use of anyone anywhere.
            *** START OF THIS PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***</pre>
            \(chapters)
            <pre>*** END OF THIS PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***</pre><p>Updated editions will replace the previous one.</p></body></html>
            """
        for (name, html) in [("modern", modern), ("older", older)] {
            let document = try HTMLReader(mode: .html).read(html, path: "book.html")
            let result = Splitter(settings: SplitSettings()).split([
                .structured([document], chaptersFromContents: false)
            ])
            #expect(result.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II"], "\(name): \(result.chapters)")
            #expect(!result.items.contains { $0.text.contains("Gutenberg") || $0.text.contains("editions") }, "\(name)")
            #expect(
                document.blockIndexByID["truth"].map { document.blocks[$0].foldedText }
                    == "It is a truth universally acknowledged.", "\(name)")
            let kept = try HTMLReader(mode: .html, keepsGutenbergMatter: true).read(html, path: "book.html")
            #expect(
                kept.blocks.contains {
                    $0.foldedText.contains("Project Gutenberg eBook")
                        || $0.foldedText.contains("Project Gutenberg EBook")
                }, "\(name)")
        }
    }

    /// A table of contents in HTML — a run of links into the book, as a table with page numbers or
    /// as paragraphs, under a "Contents" heading — is not read aloud; a paragraph that only
    /// mentions a chapter by a link is.
    @Test func anHTMLTableOfContentsIsNotReadAloud() throws {
        let chapters = (1...3).map { number in
            "<h2 id=\"c\(number)\">CHAPTER \(String(repeating: "I", count: number))</h2><p id=\"p\(number)\">Text of chapter \(number), as <a href=\"#c1\">the first</a> began.</p>"
        }.joined()
        let table =
            "<h2>Contents</h2><table>"
            + (1...3).map {
                "<tr><td><a href=\"#c\($0)\">CHAPTER \(String(repeating: "I", count: $0))</a></td><td>\($0 * 7)</td></tr>"
            }.joined() + "</table>"
        let paragraphs =
            "<p>CONTENTS</p>"
            + (1...3).map { "<p class=\"toc\"><a href=\"book.html#c\($0)\">Chapter \($0). The \($0)</a></p>" }.joined()
        for (name, contents) in [("table", table), ("paragraphs", paragraphs)] {
            let document = try HTMLReader(mode: .html).read(
                "<html><body><h1>Pride and Prejudice</h1>\(contents)\(chapters)</body></html>", path: "book.html")
            let result = Splitter(settings: SplitSettings()).split([
                .structured([document], chaptersFromContents: false)
            ])
            // The book's title above the contents is its title page: not a chapter of its own.
            #expect(
                result.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II", "CHAPTER III"],
                "\(name): \(result.chapters)")
            #expect(
                result.items.filter { $0.kind == .paragraph }.map(\.text)
                    == (1...3).map { "Text of chapter \($0), as the first began." }, "\(name)")
            #expect(
                document.blockIndexByID["p2"].map { document.blocks[$0].foldedText }
                    == "Text of chapter 2, as the first began.", "\(name)")
        }
    }

    /// A contents list set as one paragraph of links parted by line breaks (Gutenberg's Treasure
    /// Island): the book's title over its first part, parts and numbered chapters; a list of
    /// illustrations set the same way under its heading is neither the chapter list nor spoken.
    @Test func aContentsParagraphOfLinksOnlyIsTheChapterList() throws {
        let names = ["Sea Dog", "Black Spot", "Sea Chest", "Blind Man", "Old Map"]
        let entries =
            ["<a href=\"#t\">THE BOOK</a>", "<a href=\"#part1\">PART ONE—The Sea</a>"]
            + (1...3).map { "<a href=\"#c\($0)\">\($0). The \(names[$0 - 1])</a>" }
            + ["<a href=\"#part2\">PART TWO—The Land</a>"]
            + (4...5).map { "<a href=\"#c\($0)\">\($0). The \(names[$0 - 1])</a>" }
        let illustrations = (1...6).map { "<a href=\"#i\($0)\">Picture \($0)</a>" }.joined(separator: "<br/>")
        var body = "<h1 id=\"t\">THE BOOK</h1>"
        for number in 1...5 {
            if number == 1 || number == 4 {
                body +=
                    "<h1 id=\"part\(number == 1 ? 1 : 2)\">\(number == 1 ? "PART ONE—The Sea" : "PART TWO—The Land")</h1>"
            }
            body +=
                "<h2 id=\"c\(number)\">\(number)</h2><h3>The \(names[number - 1])</h3><p id=\"i\(number)\">Rain fell on day \(number).</p>"
        }
        let html =
            "<html><body><h1>THE BOOK</h1><h2>by Somebody</h2><blockquote><p>\(entries.joined(separator: "<br/>"))</p></blockquote>"
            + "<h2>ILLUSTRATIONS</h2><p>\(illustrations)</p>\(body)</body></html>"
        let document = try HTMLReader(mode: .html).read(html, path: "book.html")
        let result = Splitter(settings: SplitSettings()).split([
            .structured([document], chaptersFromContents: document.chaptersFromContents)
        ])
        #expect(
            result.chapters.map(\.title) == [
                "PART ONE—The Sea — 1. The Sea Dog", "PART ONE—The Sea — 2. The Black Spot",
                "PART ONE—The Sea — 3. The Sea Chest", "PART TWO—The Land — 4. The Blind Man",
                "PART TWO—The Land — 5. The Old Map",
            ], "\(result.chapters.map(\.title))")
        #expect(!result.items.contains { $0.text.contains("Picture") || $0.text.contains("by Somebody") })
        #expect(
            result.items.first?.text == "THE BOOK", "the title is read where the book sets it, before its first part")
    }

    /// A plain text's contents of synopses — entries whose lines run on, end on a quote, and count
    /// letters and then chapters from one — titled by the body's numbers; a chapter the body
    /// misnumbers ("CHAPTER II" printed for III) is still the listed one.
    @Test func contentsOfSynopsesLettersAndAMisprintedNumber() {
        let page = String(repeating: "The ship lay in the ice and the men were cold and tired of waiting. ", count: 20)
        let text = """
            CONTENTS

            LETTER 1. From Petersburgh--The Ship--A Stranger Comes Aboard

            LETTER 2. The Ice--A Sledge on the Plain--“Who Goes There”

            CHAPTER 1. Geneva--My Parents--The Lake and the Storm--Elizabeth
              Comes to Live With Us

            CHAPTER 2. College--The Laboratory--A Long Winter--The Work Begins

            CHAPTER 3. The Creature--Flight--Return to Geneva--The Trial



            Letter 1

            \(page)

            Letter 2

            \(page)

            CHAPTER 1

            \(page)

            CHAPTER 2

            \(page)

            CHAPTER II

            \(page)

            """
        let result = split(text)
        #expect(
            result.chapters.map(\.title) == ["Letter 1", "Letter 2", "CHAPTER 1", "CHAPTER 2", "CHAPTER 3"],
            "\(result.chapters.map(\.title))")
        #expect(!result.items.contains { $0.text.contains("Geneva--My Parents") })
    }

    /// A contents entry misspelt ("Couterparts") is still found by its heading, which titles it;
    /// a number a letter apart ("CHAPTER XVI", "CHAPTER XXVI") is another chapter, never a misspelling.
    @Test func aMisspeltContentsEntryIsFoundAndTitledByTheBody() {
        let page = String(repeating: "He sat at his desk and copied the letters until the light went. ", count: 20)
        let titles = ["THE SISTERS", "AN ENCOUNTER", "COUNTERPARTS", "A PAINFUL CASE"]
        var text = "CONTENTS\n\n   The Sisters\n   An Encounter\n   Couterparts\n   A Painful Case\n\n\n\n"
        for title in titles { text += "\(title)\n\n\(page)\n\n" }
        #expect(split(text).chapters.map(\.title) == titles, "\(split(text).chapters.map(\.title))")
        #expect(ContentsList.isMisspelling("Couterparts", of: "COUNTERPARTS"))
        #expect(!ContentsList.isMisspelling("CHAPTER XXVI.", of: "CHAPTER XVI"))
        #expect(!ContentsList.isMisspelling("The Period", of: "The Perils"))
    }

    /// A listed chapter whose body sets its number over its title ("X." / "THE EPILOGUE.", listed as
    /// "X. THE EPILOGUE.") is one chapter: the title line is no section of its own.
    @Test func aListedNumberOverItsTitleLineIsOneChapter() {
        let page = String(repeating: "The Martians had gone and the streets were quiet again at last. ", count: 20)
        let text =
            "Contents\n\n I. THE EVE OF THE WAR.\n II. THE FALLING STAR.\n III. THE EPILOGUE.\n\n\n\n"
            + "I.\n\nTHE EVE OF THE WAR.\n\n\(page)\n\nII.\n\nTHE FALLING STAR.\n\n\(page)\n\n"
            + "III.\n\nTHE EPILOGUE.\n\n\(page)\n"
        let result = split(text)
        #expect(
            result.chapters.map(\.title) == ["I. THE EVE OF THE WAR.", "II. THE FALLING STAR.", "III. THE EPILOGUE."],
            "\(result.chapters.map(\.title))")
    }

    /// An HTML contents list of chapters only, in a table per book under the book's heading: the
    /// chapters come from it, and the body's own part headings (a number over a title) and the
    /// sections beside them (a prelude, a finale) are still the book's structure.
    @Test func anHTMLContentsOfChaptersKeepsTheBodysPartsAndSections() throws {
        let text = "<p>Dorothea knew many passages of Pascal by heart and walked in the garden at dusk.</p>"
        func table(_ numbers: ClosedRange<Int>) -> String {
            "<table><tr>" + numbers.map { "<td><a href=\"#chap\($0)\">CHAPTER \($0)</a></td>" }.joined()
                + "</tr></table>"
        }
        let contents = "<h2>CONTENTS</h2><h3>BOOK I</h3>\(table(1...2))<h3>BOOK II</h3>\(table(3...4))"
        var body = "<h2>PRELUDE</h2>\(text)"
        for chapter in 1...4 {
            if chapter == 1 || chapter == 3 {
                body +=
                    "<a name=\"chap\(chapter)\"></a><h2>BOOK \(chapter == 1 ? "I" : "II").</h2><h2>\(chapter == 1 ? "MISS BROOKE" : "OLD AND YOUNG").</h2><h3>CHAPTER \(chapter).</h3>\(text)"
            } else {
                body += "<a name=\"chap\(chapter)\"></a><h3>CHAPTER \(chapter).</h3>\(text)"
            }
        }
        body += "<h2>FINALE.</h2>\(text)"
        let document = try HTMLReader(mode: .html).read(
            "<html><body><h1>MIDDLEMARCH</h1>\(contents)\(body)</body></html>", path: "book.html")
        let result = Splitter(settings: SplitSettings()).split([
            .structured([document], chaptersFromContents: document.chaptersFromContents)
        ])
        #expect(
            result.chapters.map(\.title) == [
                "Prelude", "Book I: MISS BROOKE — CHAPTER 1", "Book I: MISS BROOKE — CHAPTER 2",
                "Book II: OLD AND YOUNG — CHAPTER 3", "Book II: OLD AND YOUNG — CHAPTER 4", "Finale.",
            ], "\(result.chapters.map(\.title))")
        #expect(
            result.chapters.map(\.part) == [
                nil, "Book I: MISS BROOKE", "Book I: MISS BROOKE", "Book II: OLD AND YOUNG", "Book II: OLD AND YOUNG",
                nil,
            ])
    }

    /// Headings set in spaced capitals ("P R E F A C E") are the words they spell, in the chapter
    /// list and in what is spoken.
    @Test func spacedCapitalsAreTheWordsTheySpell() {
        let page = String(repeating: "The morning was grey and the road was long and wet. ", count: 30)
        let result = split("P R E F A C E\n\n\(page)\n\nC H A P T E R  I\n\n\(page)\n\nCHAPTER II\n\n\(page)\n")
        #expect(result.chapters.map(\.title) == ["PREFACE", "CHAPTER I", "CHAPTER II"], "\(result.chapters)")
        #expect(result.items.filter { $0.kind == .heading }.map(\.text) == ["PREFACE", "CHAPTER I", "CHAPTER II"])
        #expect(split("I saw A B C D on the wall.\n").items.map(\.text) == ["I saw A B C D on the wall."])
    }

    /// A recipe's own heading rules replace the built-in shapes (an epistolary novel's letters are
    /// chapters; "Chapter 1" is then text), and a pattern that cannot work is refused naming its path.
    @Test func aRecipesHeadingPatternsReplaceTheBuiltInShapes() throws {
        let book =
            "VOLUME I\n\nLetter 1\n\nTo Mrs. Saville, England.\n\nChapter 1\n\nLetter 2\n\nYou will rejoice to hear.\n"
        let rules = #""headings": { "chapter": "^Letter [0-9]+$", "part": "^VOLUME [IVX]+$" }"#
        let project = try TestProject(
            book: book,
            recipe: Fixtures.recipe(extra: #""exports": []"#).replacingOccurrences(
                of: #""maxCharacters": 600 }"#, with: #""maxCharacters": 600, \#(rules) }"#))
        let plan = try project.forge(["plan", "recipe.json", "--json"])
        #expect(plan.status == 0, "\(plan.errors)")
        let fields = try JSONSerialization.jsonObject(with: Data(plan.text.utf8)) as? [String: Any]
        let titles = (fields?["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles == ["Volume I — Letter 1", "Volume I — Letter 2"], "\(plan.text)")
        // `forge plan` lists the chapters under their part.
        let table = try project.forge(["plan", "recipe.json"]).lines
        let part = try #require(table.firstIndex(of: "     Volume I"), "\(table)")
        #expect(
            table[part + 1].hasPrefix("  1    Letter 1") && table[part + 2].hasPrefix("  2    Letter 2"), "\(table)")

        for (pattern, reason) in [("(unclosed", "regular expression"), ("^.*$", "empty line")] {
            let bad = #""headings": { "chapter": "\#(pattern)" }"#
            try project.write(
                recipe: Fixtures.recipe().replacingOccurrences(
                    of: #""maxCharacters": 600 }"#, with: #""maxCharacters": 600, \#(bad) }"#))
            let refused = try project.forge(["plan", "recipe.json"])
            #expect(
                refused.status == 2 && refused.errors.contains("split.headings.chapter")
                    && refused.errors.contains(reason), "\(refused.errors)")
        }

        // `"headings": "markdown"`: a text file's `#` lines are its headings, and nothing else is one.
        try project.write(
            book:
                "# Volume I\n\n## Letter 1\n\nTo Mrs. Saville.\n\nChapter 1\n\n## Letter 2\n\nYou will rejoice.\n\n# Volume II\n\n## Letter 3\n\nMore.\n"
        )
        try project.write(
            recipe: Fixtures.recipe(extra: #""exports": []"#).replacingOccurrences(
                of: #""maxCharacters": 600 }"#, with: #""maxCharacters": 600, "headings": "markdown" }"#))
        let markup = try project.forge(["plan", "recipe.json", "--json"])
        let chapters =
            (try JSONSerialization.jsonObject(with: Data(markup.text.utf8)) as? [String: Any])?["chapters"]
            as? [[String: Any]] ?? []
        #expect(
            chapters.compactMap { $0["title"] as? String } == [
                "Volume I — Letter 1", "Volume I — Letter 2", "Volume II — Letter 3",
            ], "\(markup.text)\(markup.errors)")
        try project.write(
            recipe: Fixtures.recipe().replacingOccurrences(
                of: #""maxCharacters": 600 }"#, with: #""maxCharacters": 600, "headings": "marktown" }"#))
        let unknown = try project.forge(["plan", "recipe.json"])
        #expect(
            unknown.status == 2 && unknown.errors.contains("split.headings") && unknown.errors.contains("markdown"),
            "\(unknown.errors)")
    }

    @Test func textBeforeAnyChapterGetsAnUntitledChapter() {
        let result = split("Just a note.\n\nAnother.")
        #expect(result.chapters.map(\.title) == ["book"])
        #expect(result.items.count == 2)
    }

    @Test func markdownHeadingsAndMarkup() {
        let text = """
            ---
            title: skipped front matter
            ---
            # The Title

            Some *emphasis* and `code` and snake_case words.

            ```
            let skipped = true
            ```

            ### A section

            ## Next chapter
            Body.
            """
        let result = split(text, format: .markdown)
        #expect(result.chapters.map(\.title) == ["The Title", "Next chapter"])
        #expect(
            result.items.map(\.text) == [
                "The Title", "Some emphasis and code and snake_case words.", "A section", "Next chapter", "Body.",
            ])
    }

    /// CommonMark, not a guess: a `*` that is no emphasis stays, escapes are text, setext headings
    /// start chapters, front matter is not spoken.
    @Test func markdownFollowsCommonMark() {
        let text = """
            ---
            title: Front matter
            ---
            The Sums
            ========

            Two * three is six, and 2*3 = 6; \\*not emphasis\\* and a \\# sign, `x * y` too.

            Its \\[brackets\\] & a line
            with a break.

            Part the Second
            ---------------

            Last words.
            """
        let result = split(text, format: .markdown)
        #expect(result.chapters.map(\.title) == ["The Sums", "Part the Second"])
        #expect(
            result.items.map(\.text) == [
                "The Sums", "Two * three is six, and 2*3 = 6; *not emphasis* and a # sign, x * y too.",
                "Its [brackets] & a line with a break.", "Part the Second", "Last words.",
            ])
        // Offsets point back at the source's words, past the blanked front matter.
        let scalars = Array(text.unicodeScalars)
        for item in result.items {
            let spoken = String(String.UnicodeScalarView(scalars[item.sourceStart..<(item.sourceStart + 3)]))
            #expect(spoken == String(item.text.prefix(3)), "\(item.text): starts at \(spoken)")
        }
    }

    /// `split.unit: "line"`: each non-empty line is an item — verse, one caption per line — in
    /// plain text, Markdown, HTML (`<br>`) and scripts (the speaker announced once per speech).
    @Test func lineUnitMakesEachLineAnItem() throws {
        let poem =
            "The Tyger\n\nTyger Tyger, burning bright,\nIn the forests of the night;\n\nWhat immortal hand or eye,\nCould frame thy fearful symmetry?\n"
        let lines = [
            "Tyger Tyger, burning bright,", "In the forests of the night;", "What immortal hand or eye,",
            "Could frame thy fearful symmetry?",
        ]
        #expect(split(poem, unit: .line).items.map(\.text) == ["The Tyger"] + lines)
        #expect(
            split(poem, unit: .paragraph).items.map(\.text) == [
                "The Tyger", lines[0] + " " + lines[1], lines[2] + " " + lines[3],
            ])
        #expect(split(poem, format: .markdown, unit: .line).items.map(\.text) == ["The Tyger"] + lines)
        let html = "<html><body><p>\(lines[0])<br>\(lines[1])</p><p>\(lines[2])<br/>\n\(lines[3])</p></body></html>"
        let document = try HTMLReader(mode: .html).read(html, path: "poem.html")
        let fromHTML = Splitter(settings: SplitSettings(unit: .line)).split([
            .document(SourceDocument(documents: [document]))
        ]).items
        #expect(fromHTML.map(\.text) == lines)
        // Each line's offsets are its own.
        let scalars = Array(poem.unicodeScalars)
        for item in split(poem, unit: .line).items {
            #expect(String(String.UnicodeScalarView(scalars[item.sourceStart..<item.sourceEnd])) == item.text)
        }
        let script = "HAMLET: To be, or not to be, that is the question:\nWhether 'tis nobler in the mind to suffer\n"
        let spoken = Splitter(settings: SplitSettings(unit: .line, announceCharacters: .always)).split([
            ("play.script", .script, script)
        ]).items
        #expect(
            spoken.map(\.text) == [
                "Hamlet", "To be, or not to be, that is the question:", "Whether 'tis nobler in the mind to suffer",
            ], "\(spoken.map(\.text))")
    }

    @Test func markdownLinksListsQuotesAndCommentsAreSpokenAsText() {
        let text = """
            # Links and lists

            Read [the *first* chapter](https://example.com/one "Title") or [the second][two],
            not ![a picture](img.png) nor <https://example.com>.
            <!-- a note to the editor,
            over two lines -->
            [two]: https://example.com/two

            - Apples are red.
            - Pears are <em>green</em>.
              Still the pear.
            1. First step.
            2) Second step.

            > A quoted line
            > that goes on.
            >
            > > A nested quote.
            """
        let result = split(text, format: .markdown)
        #expect(
            result.items.map(\.text) == [
                "Links and lists", "Read the first chapter or the second, not nor .", "Apples are red.",
                "Pears are green. Still the pear.",
                "First step.", "Second step.", "A quoted line that goes on.", "A nested quote.",
            ])
        let words = result.items.flatMap(\.words).map(\.text)
        #expect(
            !words.contains {
                $0.contains("example") || $0.contains("picture") || $0.contains("editor") || $0 == "two"
            }, "\(words)")
        // Source offsets still point at the spoken words.
        let link = try! #require(result.items.dropFirst().first)
        let scalars = Array(text.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[link.sourceStart..<(link.sourceStart + 4)])) == "Read")
    }

    @Test func longParagraphsAreCutAtSentenceBoundariesUnderTheLimit() {
        let sentence = "Elizabeth walked on quickly, and Mr. Darcy followed her at a distance. "
        let paragraph = String(repeating: sentence, count: 30)
        let result = split(paragraph, maxCharacters: 200)
        #expect(result.items.count > 10)
        for item in result.items {
            #expect(item.text.unicodeScalars.count <= 200)
            #expect(item.text.hasSuffix("distance."), "cut mid-sentence: \(item.text)")
            #expect(item.text.hasPrefix("Elizabeth"))
        }
        let words = result.items.flatMap(\.words).map(\.text)
        #expect(words.count == 30 * 12)
    }

    /// An item's word count (counted as it is cut, its words made only when asked) is its words'.
    @Test func eachItemsWordCountIsItsNumberOfWords() {
        let text = """
            Don't stop: 1,000.5 well-known "quotes"—dashes… and the café's naïve résumé.

            日本語のテキストです。 Mixed 漢字 text, 3.14 and end-of-line-

            — A dash first. ' ' - -- Ünïcödé!
            """
        let result = split(text)
        #expect(result.items.count >= 3)
        for item in result.items {
            #expect(item.wordCount == item.words.count, "\(item.text)")
        }
        #expect(result.wordCount == result.items.flatMap(\.words).count)
    }

    @Test func overlongSentencesAreCutBetweenWordsNeverInside() {
        let sentence = Array(repeating: "extraordinarily", count: 100).joined(separator: " ") + "."
        let result = split(sentence, maxCharacters: 100)
        for item in result.items {
            #expect(item.text.unicodeScalars.count <= 100)
            #expect(item.words.allSatisfy { $0.text == "extraordinarily" })
        }
        #expect(result.items.flatMap(\.words).count == 100)
    }

    @Test func clausePunctuationIsPreferredForLongSentences() {
        let sentence =
            "She was a woman of mean understanding, little information, and uncertain temper; when she was discontented, she fancied herself nervous and wished for nothing at all."
        let result = split(sentence, maxCharacters: 100)
        #expect(result.items.count == 2)
        #expect(result.items[0].text.hasSuffix(";") || result.items[0].text.hasSuffix(","))
    }

    @Test func abbreviationsAndInitialsDoNotEndSentences() {
        let text =
            "Mr. Bennet met Dr. Jones and J. R. Smith at St. Paul's. They talked, e.g. of the weather. It rained."
        let sentences = SentenceSegmenter.sentences(in: Array(text.unicodeScalars)).map {
            String(String.UnicodeScalarView(Array(text.unicodeScalars)[$0]))
        }
        #expect(
            sentences == [
                "Mr. Bennet met Dr. Jones and J. R. Smith at St. Paul's.", "They talked, e.g. of the weather.",
                "It rained.",
            ])
        #expect(split(text, unit: .sentence).items.count == 3)
    }

    @Test func quotedSentenceEnds() {
        let text = "\u{201C}Is he married or single?\u{201D} \u{201C}Oh! Single, my dear.\u{201D}"
        #expect(
            split(text, unit: .sentence).items.map(\.text) == [
                "\u{201C}Is he married or single?\u{201D}", "\u{201C}Oh!", "Single, my dear.\u{201D}",
            ])
    }

    @Test func contractionsHyphensAndNumbersStayWhole() {
        let words = Tokenizer.words(
            in: "Don't—I can’t! A well-known 1,000.50 pounds; rock 'n' roll \"quoted\" 'single'"
        ).map(\.text)
        #expect(
            words == [
                "Don't", "I", "can’t", "A", "well-known", "1,000.50", "pounds", "rock", "n", "roll", "quoted", "single",
            ])
    }

    @Test func wordRangesAreUnicodeScalarOffsets() {
        let text = "Café naïve 👍🏽 résumé"
        let words = Tokenizer.words(in: text)
        #expect(words.map(\.text) == ["Café", "naïve", "résumé"])
        let scalars = Array(text.unicodeScalars)
        for word in words {
            #expect(String(String.UnicodeScalarView(scalars[word.start..<word.end])) == word.text)
        }
        #expect(words[2].start == 14)  // the emoji and its skin-tone modifier are two scalars
    }

    @Test func combiningMarksStayInTheirWord() {
        let text = "cafe\u{301} ok"
        #expect(Tokenizer.words(in: text).map(\.text) == ["cafe\u{301}", "ok"])
    }

    @Test func textWithoutSpacesGetsOneWordPerCharacter() {
        let words = Tokenizer.words(in: "東京は晴れ。Tokyo").map(\.text)
        #expect(words == ["東", "京", "は", "晴", "れ", "Tokyo"])
        let result = split("東京は晴れです。大阪は雨です。", maxCharacters: 40, unit: .sentence)
        #expect(result.items.map(\.text) == ["東京は晴れです。", "大阪は雨です。"])
    }

    @Test func unspacedTextLongerThanTheLimitIsCutSafely() {
        let text = String(repeating: "東京は晴れです", count: 40)
        let result = split(text, maxCharacters: 50)
        #expect(result.items.allSatisfy { $0.text.unicodeScalars.count <= 50 })
        #expect(result.items.map(\.text).joined() == text)
    }

    @Test func emptyAndBlankInputsYieldNothing() {
        #expect(split("").items.isEmpty)
        #expect(split("\n\n   \n\t\n").items.isEmpty)
        #expect(split("* * *\n\n---").items.isEmpty)
    }

    @Test func sourceRangesPointBackIntoTheSource() {
        let text = Fixtures.shortBook
        let scalars = Array(text.unicodeScalars)
        for item in split(text).items {
            let original = String(String.UnicodeScalarView(scalars[item.sourceStart..<item.sourceEnd]))
            let folded = original.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(folded == item.text)
        }
    }

    @Test func idsAreStableWhenAnotherParagraphIsEdited() {
        let before = split(Fixtures.shortBook).items
        let edited = Fixtures.shortBook.replacingOccurrences(
            of: "Mr. Bennet replied that he had not.", with: "Mr. Bennet said nothing at all.")
        let after = split(edited).items
        #expect(before.count == after.count)
        let changed = zip(before, after).filter { $0.id != $1.id }
        #expect(changed.count == 1)
        #expect(changed.first?.0.text == "Mr. Bennet replied that he had not.")
    }

    /// Recognising parts changes no item but the parts' own heading lines: every other item keeps
    /// its id (and so its audio), so a new Forge that finds a book's parts re-synthesizes no chapter.
    @Test func recognisingPartsChangesOnlyThePartHeadingsItems() {
        let book =
            "BOOK ONE: 1805\n\nCHAPTER I\n\nWell, Prince, so Genoa and Lucca are now just family estates.\n\nCHAPTER II\n\nAnna Pavlovna's drawing room was gradually filling.\n\nBOOK TWO: 1805\n\nCHAPTER I\n\nIn October, 1805, a Russian army was occupying the villages.\n"
        let withParts = split(book)
        // The recipe's patterns find the chapters only, as a Forge that knew no parts did.
        let document = PlainTextReader(headingPatterns: HeadingPatterns(chapter: "^CHAPTER [IVX]+$")).read(
            book, path: "book.txt")
        let withoutParts = Splitter(settings: SplitSettings()).split([
            .structured([document], chaptersFromContents: false)
        ])
        #expect(withParts.chapters.compactMap(\.part) == ["Book One: 1805", "Book One: 1805", "Book Two: 1805"])
        #expect(withoutParts.chapters.allSatisfy { $0.part == nil }, "\(withoutParts.chapters)")
        let partLines: Set<String> = ["BOOK ONE: 1805", "BOOK TWO: 1805"]
        #expect(withParts.items.map(\.text) == withoutParts.items.map(\.text))
        let changed = zip(withParts.items, withoutParts.items).filter { $0.id != $1.id }.map(\.0.text)
        #expect(Set(changed).isSubset(of: partLines), "\(changed)")
    }

    @Test func repeatedTextGetsDistinctIds() {
        let items = split("Yes.\n\nNo.\n\nYes.").items
        #expect(items.count == 3)
        #expect(Set(items.map(\.id)).count == 3)
        #expect(items[2].id == items[0].id + "-2")
    }

    @Test func invalidUTF8IsReportedWithItsByteOffset() throws {
        var bytes = Array("Hello wörld".utf8)
        bytes.insert(0xFF, at: 7)
        #expect(throws: TextError.notUTF8(file: "x.txt", byteOffset: 7)) {
            try SourceReader.decode(Data(bytes), file: "x.txt")
        }
        #expect(throws: TextError.binary(file: "x.bin", byteOffset: 3)) {
            try SourceReader.decode(Data([0x41, 0x42, 0x43, 0x00, 0x44]), file: "x.bin")
        }
    }
}
