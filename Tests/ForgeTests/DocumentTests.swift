import Foundation
import Testing
import ZIPFoundation

@testable import Forge

/// HTML, XHTML and EPUB sources: structure, ids, reading order, and the documents Forge refuses.
@Suite struct DocumentTests {
    func split(_ sources: [SplitSource], language: String = "en") -> SplitResult {
        Splitter(settings: SplitSettings(maxCharacters: 1000), language: language).split(sources)
    }

    func load(
        _ url: URL, format: SourceFile.Format? = nil, include: [String] = [], exclude: [String] = [],
        limits: EPUBReader.Limits = .init()
    ) throws -> SplitResult {
        let source = SourceFile(
            url: url, format: format ?? SourceFile.inferredFormat(for: url), include: include, exclude: exclude)
        return split(try SourceLoader(limits: limits).load([source]).documents.map(SplitSource.document))
    }

    func words(_ result: SplitResult) -> [String] {
        result.items.flatMap(\.words).map(\.text)
    }

    @Test func htmlBlocksHeadingsIdsAndUnspokenElements() throws {
        let html = """
            <!DOCTYPE html>
            <html lang="en-GB"><head><title>A Book</title><style>p { color: red }</style>
            <script>document.write("<p>never spoken</p>")</script></head>
            <body>
            <nav><ol><li><a href="#one">Table of contents entry</a></li></ol></nav>
            <h1 id="one">The First Part</h1>
            <p id="p1">It is a truth &amp; universally&nbsp;acknowledged&mdash;that a <em>single</em> man<span epub:type="pagebreak">12</span> in possession<a role="doc-noteref" href="#n1">1</a><sup><a epub:type="noteref" href="#n2">2</a></sup>.</p>
            <p>First line<br>second line
            <div hidden>hidden text</div><div aria-hidden="true">aria hidden</div><div style="display: none">display none</div>
            <ul><li>One item<li>Two item</ul>
            <blockquote><p>Quoted words.</p></blockquote>
            <h3>A Section</h3>
            <p>Section text with &#8220;numeric&#x201D; references.</p>
            <h2><a id="two"></a>The Second Part</h2>
            <p>Last words.</p>
            </body></html>
            """
        let document = try HTMLReader(mode: .html).read(html, path: "book.html")
        #expect(document.language == "en-GB")
        #expect(document.title == "A Book")
        let result = split([.structured([document], chaptersFromContents: false)])
        #expect(result.chapters.map(\.title) == ["The First Part", "The Second Part"])
        #expect(
            result.items.map(\.text) == [
                "The First Part",
                "It is a truth & universally acknowledged—that a single man in possession.",
                "First line second line",
                "One item", "Two item", "Quoted words.",
                "A Section",
                "Section text with “numeric” references.",
                "The Second Part", "Last words.",
            ])
        #expect(
            result.items.map(\.kind) == [
                .heading, .paragraph, .paragraph, .paragraph, .paragraph, .paragraph, .heading, .paragraph, .heading,
                .paragraph,
            ])
        #expect(result.items[0].elementID == "one")
        #expect(result.items[1].elementID == "p1")
        #expect(result.items[8].elementID == "two", "an id inside the heading points at it")
        #expect(result.items[2].elementID == nil)
        #expect(result.items.map(\.chapter) == [1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
        // Source offsets point back into the HTML.
        let scalars = Array(html.unicodeScalars)
        let item = result.items[1]
        let source = String(String.UnicodeScalarView(scalars[item.sourceStart..<item.sourceEnd]))
        #expect(source.hasPrefix("It is a truth &amp;"))
        #expect(source.hasSuffix("</sup>."))
    }

    /// Each block holds only its own text: not storage as long as the longest block before it
    /// (a 600,000-word EPUB's 10,000 blocks held 190 MB that way while the book was read).
    @Test func aBlockAfterALongOneHoldsOnlyItsOwnText() throws {
        let long = String(repeating: "word ", count: 5_000)
        let html =
            "<html><body><p>\(long)</p>" + (0..<50).map { "<p>Short paragraph \($0).</p>" }.joined() + "</body></html>"
        let blocks = try HTMLReader(mode: .html).read(html, path: "book.html").blocks
        #expect(blocks.count == 51)
        for block in blocks.dropFirst() {
            #expect(block.text.capacity < 64 && block.origins.capacity < 64, "\(block.foldedText)")
        }
    }

    @Test func brokenXHTMLIsRefusedWithItsLineAndColumnButHTMLIsReadLeniently() throws {
        let cases: [(String, Int, String)] = [
            // libxml2's messages.
            ("<html><body>\n<p>One <em>two</p>\n</body></html>", 2, "Opening and ending tag mismatch: em line 2 and p"),
            (
                "<html><body>\n<div><p>Unclosed</p>\n</body></html>", 3,
                "Opening and ending tag mismatch: div line 2 and body"
            ),
            ("<html><body>\n<p>Odd &bogus; entity</p></body></html>", 2, "Entity 'bogus' not defined"),
            ("<html><body>\n\n<p>Never ends", 3, "Premature end of data in tag p line 3"),
            ("<html><body><p class=x>Unquoted</p></body></html>", 1, "AttValue: \" or ' expected"),
            ("<html><body><!-- open comment <p>text</p></body></html>", 1, "Comment not terminated"),
            // Named but not loaded, a DTD makes an unknown entity only a warning to libxml2: still refused.
            (
                "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\" \"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd\">\n<html><body><p>&bogus;</p></body></html>",
                2, "Entity 'bogus' not defined"
            ),
            (
                String(repeating: "<div>", count: 300) + String(repeating: "</div>", count: 300), 1,
                "elements are nested more than 256 deep"
            ),
        ]
        for (xhtml, line, problem) in cases {
            do {
                _ = try HTMLReader(mode: .xhtml).read(xhtml, path: "broken.xhtml")
                Issue.record("accepted broken XHTML: \(xhtml)")
            } catch {
                guard case .malformedMarkup(let file, let foundLine, _, let foundProblem) = error else {
                    Issue.record("wrong error \(error)")
                    continue
                }
                #expect(file == "broken.xhtml")
                #expect(foundLine == line, "\(xhtml)")
                #expect(foundProblem.contains(problem), "\(foundProblem)")
                #expect(error.localizedDescription.contains("broken.xhtml:\(line):"))
            }
        }
        // An empty document (an EPUB's blank page) is nothing to read, as in HTML.
        #expect(try HTMLReader(mode: .xhtml).read(" \n", path: "blank.xhtml").blocks.isEmpty)
        // The first document read as HTML: the unclosed <em> closes with its paragraph.
        let lenient = try HTMLReader(mode: .html).read(cases[0].0, path: "book.html")
        #expect(lenient.blocks.map(\.foldedText) == ["One two"])
    }

    @Test func epubChaptersComeFromTheNavigationDocumentOrTheNCX() throws {
        let directory = try TemporaryDirectory("epub")
        let book = BookFormats.corpus(chapters: 3)
        for version in [3, 2] {
            let url = directory.file("book\(version).epub")
            try book.writeEPUB(to: url, options: BookFormats.EPUBOptions(version: version, headingTag: "h3"))
            let result = try load(url)
            // The copyright page comes first in the spine, before any table-of-contents entry.
            #expect(result.chapters.map(\.title) == ["Copyright"] + book.chapters.map(\.title), "EPUB \(version)")
            let firstParagraph = try #require(result.items.first { $0.chapter == 2 && $0.kind == .paragraph })
            #expect(firstParagraph.elementID == "p1")
            #expect(firstParagraph.sourcePath == "\(url.path)!/OEBPS/text/chapter-1.xhtml")
            #expect(result.items.first { $0.chapter == 2 }?.elementID == "heading")
            #expect(result.items.allSatisfy { $0.elementID != nil }, "every block of this book has an id")
            // Front matter is left out by naming its spine item.
            let without = try load(url, exclude: ["copyright"])
            #expect(without.chapters.map(\.title) == book.chapters.map(\.title))
            #expect(!without.items.contains { $0.text.contains("public domain") })
        }
    }

    /// An EPUB's table of contents with chapters nested under parts gives a book in parts, as the
    /// same structure in text or Markdown does: repeated chapter titles become unique, each chapter
    /// records its part, and an epilogue listed beside the parts is a chapter of its own, in no part —
    /// whether a part has a page of its own or its entry points at its first chapter.
    @Test func anEPUBsNestedContentsGiveItsParts() throws {
        let directory = try TemporaryDirectory("epub-parts")
        var book = BookFormats.corpus(chapters: 4)
        for index in 0..<3 { book.chapters[index].title = index == 2 ? "Chapter 1" : "Chapter \(index + 1)" }
        book.chapters[3].title = "Epilogue"
        for version in [3, 2] {
            for partPages in [true, false] {
                let url = directory.file("book\(version)-\(partPages).epub")
                let options = BookFormats.EPUBOptions(
                    version: version, frontMatter: false, parts: [("Book One", 0..<2), ("Book Two", 2..<3)],
                    partPages: partPages)
                try book.writeEPUB(to: url, options: options)
                let result = try load(url)
                let context = "EPUB \(version), part pages: \(partPages)"
                #expect(
                    result.chapters.map(\.title) == [
                        "Book One — Chapter 1", "Book One — Chapter 2", "Book Two — Chapter 1", "Epilogue",
                    ], "\(context)")
                #expect(result.chapters.map(\.part) == ["Book One", "Book One", "Book Two", nil], "\(context)")
                // One part beside chapters of the top level (a story in sections among stories) is a part too.
                let single = directory.file("single\(version)-\(partPages).epub")
                try book.writeEPUB(
                    to: single,
                    options: BookFormats.EPUBOptions(
                        version: version, frontMatter: false, parts: [("Book One", 0..<2)], partPages: partPages))
                let alone = try load(single)
                #expect(
                    alone.chapters.map(\.title) == [
                        "Book One — Chapter 1", "Book One — Chapter 2", "Chapter 1", "Epilogue",
                    ], "\(context)")
                #expect(alone.chapters.map(\.part) == ["Book One", "Book One", nil, nil], "\(context)")
            }
        }
    }

    @Test func theSameBookAsTextMarkdownHTMLAndEPUBYieldsTheSameWords() throws {
        let directory = try TemporaryDirectory("formats")
        let book = BookFormats.corpus(chapters: 3)
        let text = try directory.write("book.txt", book.plainText)
        let markdown = try directory.write("book.md", book.markdown)
        let html = try directory.write("book.html", book.html)
        let epub = directory.file("book.epub")
        try book.writeEPUB(to: epub, options: BookFormats.EPUBOptions(frontMatter: false))
        let epub2 = directory.file("book2.epub")
        try book.writeEPUB(to: epub2, options: BookFormats.EPUBOptions(version: 2, frontMatter: false))

        let reference = try load(text)
        #expect(reference.chapters.count == 3)
        #expect(words(reference).count > 3000)
        for url in [markdown, html, epub, epub2] {
            let result = try load(url)
            #expect(words(result) == words(reference), "\(url.lastPathComponent)")
            #expect(result.chapters.map(\.title) == reference.chapters.map(\.title), "\(url.lastPathComponent)")
            #expect(result.items.map(\.text) == reference.items.map(\.text), "\(url.lastPathComponent)")
        }
    }

    @Test func nonLinearSpineItemsAreSkippedUnlessIncluded() throws {
        let directory = try TemporaryDirectory("epub")
        let url = directory.file("book.epub")
        var book = BookFormats(plainText: "Chapter 1\n\nBody text.\n\nChapter 2\n\nMore text.\n")
        book.chapters[1].title = "Notes"
        try book.writeEPUB(to: url, options: BookFormats.EPUBOptions(frontMatter: false))
        // Rewrite the package with the second chapter marked linear="no".
        let edited = directory.file("edited.epub")
        try rewrite(url, to: edited) { path, data in
            path.hasSuffix(".opf")
                ? Data(
                    String(decoding: data, as: UTF8.self).replacingOccurrences(
                        of: "<itemref idref=\"ch2\"/>", with: "<itemref idref=\"ch2\" linear=\"no\"/>"
                    ).utf8) : data
        }
        #expect(try load(edited).chapters.map(\.title) == ["Chapter 1"])
        #expect(try load(edited, include: ["ch2"]).chapters.map(\.title) == ["Chapter 1", "Notes"])
        #expect(
            try load(edited, include: ["chapter-2.xhtml"]).chapters.count == 2, "a spine item can be named by its file")
        #expect(throws: DocumentError.self) { try load(edited, exclude: ["appendix"]) }
        do {
            _ = try load(edited, exclude: ["appendix"])
        } catch {
            #expect(error.localizedDescription.contains("\"appendix\""))
            #expect(
                error.localizedDescription.contains("ch1 (OEBPS/text/chapter-1.xhtml)"), "the message lists the spine")
        }
    }

    /// Copies a zip, passing each entry's contents through `transform`.
    func rewrite(_ source: URL, to target: URL, transform: (String, Data) -> Data) throws {
        let input = try Archive(url: source, accessMode: .read)
        let output = try Archive(url: target, accessMode: .create)
        for entry in input {
            var data = Data()
            _ = try input.extract(entry) { data.append($0) }
            let changed = transform(entry.path, data)
            try output.addEntry(
                with: entry.path, type: .file, uncompressedSize: Int64(changed.count),
                compressionMethod: entry.path == "mimetype" ? .none : .deflate
            ) { position, size in
                changed.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    /// Package files are XML: CDATA, entities and `>` in attribute values are read as XML says;
    /// external entities are never expanded (a hostile EPUB cannot read a file through them).
    @Test func packageFilesAreReadAsXMLAndNeverLoadExternalEntities() throws {
        let folder = try TemporaryDirectory("secret")
        let secret = try folder.write("secret.txt", "THE-SECRET")
        let package = PackageXML(
            """
            <?xml version="1.0"?>
            <!DOCTYPE package [ <!ENTITY leak SYSTEM "file://\(secret.path)"> <!ENTITY house "Longbourn"> ]>
            <package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/" version="3.0">
              <metadata><dc:title><![CDATA[Pride & Prejudice]]></dc:title><dc:creator>&leak;</dc:creator>
                <dc:description>At &house; &amp; Netherfield</dc:description><dc:language xml:lang="en">en</dc:language></metadata>
              <manifest><item id="c1" href="chapter-1.xhtml" media-type="application/xhtml+xml" title="a > b &amp; c"/></manifest>
            </package>
            """)
        #expect(package.first("title")?.text == "Pride & Prejudice", "CDATA")
        #expect(package.first("item")?.attributes["title"] == "a > b & c", "> inside an attribute value")
        #expect(package.first("item")?.attributes["href"] == "chapter-1.xhtml")
        #expect(package.first("language")?.attributes["xml:lang"] == "en")
        #expect(package.first("description")?.text == "At Longbourn & Netherfield", "internal entities")
        #expect(package.first("creator")?.text.contains("THE-SECRET") == false, "an external entity was read")
        #expect(FileManager.default.fileExists(atPath: secret.path), "the file an entity could read is there to read")
        #expect(package.first("package")?.depth == 0 && package.first("title")?.depth == 2)
        // Not well formed: read as far as libxml2 recovers, silently.
        #expect(
            PackageXML(
                "<package><metadata><title>Broken & title</title></metadata><manifest><item href='a'></manifest>"
            ).first("item")?.attributes["href"] == "a")
    }

    @Test func badEPUBsAreRefusedWithClearErrors() throws {
        let directory = try TemporaryDirectory("bad-epub")
        let book = BookFormats(plainText: "Chapter 1\n\nBody text of the book.\n\nChapter 2\n\nMore text.\n")

        func failure(
            _ name: String, options: BookFormats.EPUBOptions = .init(), limits: EPUBReader.Limits = .init(),
            write: ((URL) throws -> Void)? = nil
        ) throws -> DocumentError? {
            let url = directory.file(name)
            if let write { try write(url) } else { try book.writeEPUB(to: url, options: options) }
            do {
                _ = try load(url, format: .epub, limits: limits)
                return nil
            } catch let error as DocumentError {
                #expect(error.localizedDescription.contains(url.path), "the message names the file")
                return error
            }
        }

        // Not a zip at all.
        let notZip = try failure("text.epub") { url in try Data("just some text, not a zip".utf8).write(to: url) }
        guard case .notAZip = notZip else {
            Issue.record("text file: \(String(describing: notZip))")
            return
        }

        // A zip without the EPUB container.
        let notEPUB = try failure("plain.zip", options: .init(includeContainer: false))
        guard case .notAnEPUB(_, let reason) = notEPUB else {
            Issue.record("no container: \(String(describing: notEPUB))")
            return
        }
        #expect(reason.contains("META-INF/container.xml"))
        let wrongType = try failure("odt.epub", options: .init(mimetype: "application/vnd.oasis.opendocument.text"))
        guard case .notAnEPUB(_, let typeReason) = wrongType else {
            Issue.record("mimetype: \(String(describing: wrongType))")
            return
        }
        #expect(typeReason.contains("application/vnd.oasis.opendocument.text"))

        // A spine item whose document is not in the archive.
        let missing = try failure("missing.epub", options: .init(missingDocuments: [1]))
        #expect(
            missing
                == .missingEntry(
                    file: directory.file("missing.epub").path, entry: "OEBPS/text/chapter-2.xhtml",
                    referencedBy: "the spine item \"ch2\""))

        // An entry whose path leaves the archive.
        let slip = try failure(
            "slip.epub", options: .init(extraEntries: [("../../etc/evil.sh", Data("rm -rf /".utf8))]))
        #expect(slip == .unsafeEntryPath(file: directory.file("slip.epub").path, entry: "../../etc/evil.sh"))
        let absolute = try failure("absolute.epub", options: .init(extraEntries: [("/tmp/evil.sh", Data("x".utf8))]))
        #expect(absolute == .unsafeEntryPath(file: directory.file("absolute.epub").path, entry: "/tmp/evil.sh"))

        // A zip bomb: a chapter that is 20 MiB of one repeated byte, compressed about a thousand to one.
        let bomb = try failure("bomb.epub") { url in
            try book.writeEPUB(to: url)
            let archive = try Archive(url: url, accessMode: .update)
            let entry = try #require(archive["OEBPS/text/chapter-1.xhtml"])
            try archive.remove(entry)
            let size = 20 << 20
            try archive.addEntry(
                with: "OEBPS/text/chapter-1.xhtml", type: .file, uncompressedSize: Int64(size),
                compressionMethod: .deflate
            ) { _, chunk in
                Data(repeating: UInt8(ascii: " "), count: chunk)
            }
        }
        guard case .suspiciousCompression(_, "OEBPS/text/chapter-1.xhtml", let ratio) = bomb else {
            Issue.record("bomb: \(String(describing: bomb))")
            return
        }
        #expect(ratio > 100)
        // Bounded expansion whatever the ratio: a book past the size limit is refused.
        let large = try failure("large.epub", limits: EPUBReader.Limits(entryBytes: 300, totalBytes: 100_000))
        guard case .tooLarge = large else {
            Issue.record("limit: \(String(describing: large))")
            return
        }
    }

    @Test func aBadSourceStopsABuildBeforeAnythingIsWritten() throws {
        let project = try TestProject(recipe: Fixtures.recipe(source: "book.epub"))
        // A zip-slip book on a fresh project: exit 2, a message naming the entry, no output directory.
        try BookFormats(plainText: "Chapter 1\n\nA short book.\n").writeEPUB(
            to: project.directory.file("book.epub"), options: .init(extraEntries: [("../escape.txt", Data("x".utf8))]))
        let refused = try project.build()
        #expect(refused.status == 2)
        #expect(refused.errors.contains("\"../escape.txt\" points outside the archive"))
        #expect(!FileManager.default.fileExists(atPath: project.output.path))
        #expect(
            !FileManager.default.fileExists(
                atPath: project.directory.url.deletingLastPathComponent().appendingPathComponent("escape.txt").path))

        // A good book builds; then a broken version of it leaves the built output as it was.
        try BookFormats(plainText: "Chapter 1\n\nA short book.\n\nChapter 2\n\nWith two chapters.\n").writeEPUB(
            to: project.directory.file("book.epub"))
        let built = try project.build()
        #expect(built.status == 0, "\(built.errors)")
        let before = try project.manifest().items()
        let lastBuild = try project.manifest().lastBuild()?.id
        #expect(before.count == 5 && before.allSatisfy { $0.status == .done })
        #expect(before.first { $0.text == "A short book." }?.elementID == "p1")
        try BookFormats(plainText: "Chapter 1\n\nA short book.\n").writeEPUB(
            to: project.directory.file("book.epub"), options: .init(missingDocuments: [0]))
        let broken = try project.build()
        #expect(broken.status == 2)
        #expect(broken.errors.contains("chapter-1.xhtml"))
        #expect(try project.manifest().items() == before)
        #expect(try project.manifest().lastBuild()?.id == lastBuild, "the refused build left no build record")
    }

    @Test func theEPUBExportOfAnEPUBBookReusesItsOwnDocuments() throws {
        let project = try TestProject(recipe: Fixtures.recipe(source: "book.epub", extra: #""exports": ["epub"]"#))
        let book = BookFormats(
            plainText:
                "Chapter 1\n\nThe first paragraph.\n\nThe second one.\n\nChapter 2\n\nNo ids here.\n\nNor here. Not at all.\n"
        )
        let plain = project.directory.file("plain.epub")
        try book.writeEPUB(to: plain, options: .init(frontMatter: false))
        // The second chapter's paragraphs lose their ids, as many real books' paragraphs have none.
        try rewrite(plain, to: project.directory.file("book.epub")) { path, data in
            // … and one has inline markup across its sentences' end, where no span per sentence fits.
            path.hasSuffix("chapter-2.xhtml")
                ? Data(
                    String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<p id=", with: "<p data-n=")
                        .replacingOccurrences(
                            of: "Nor here. Not at all.", with: "Nor <em>here. Not</em> at <i>all</i>."
                        ).utf8) : data
        }
        let originals = try SyncTests.entries(project.directory.file("book.epub"))
        let result = try project.build()
        #expect(result.status == 0, "\(result.errors)")
        let exported = project.output.appendingPathComponent("exports/epub/book.epub")
        let archive = try Archive(url: exported, accessMode: .read)
        func text(_ path: String) throws -> String {
            let entry = try #require(archive[path], "\(path) is in the export")
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            return String(decoding: data, as: UTF8.self)
        }
        #expect(Array(archive).first?.path == "mimetype")
        #expect(
            archive["OEBPS/forge-audio/chapter-001.m4a"] != nil && archive["OEBPS/forge-audio/chapter-002.m4a"] != nil)
        let package = try text("OEBPS/content.opf")
        #expect(
            package.contains("media-overlay=\"forge-smil-1\"") && package.contains("media-overlay=\"forge-smil-2\""))
        #expect(package.contains("<meta property=\"media:duration\">"))
        #expect(package.contains("href=\"forge-audio/chapter-001.m4a\" media-type=\"audio/mp4\""))
        let items = try project.manifest().items()
        func span(_ text: String) -> String { "forge-s-\(items.first { $0.text == text }?.id ?? text)-0" }
        for (number, expectedFragments) in [
            (1, [span("Chapter 1"), span("The first paragraph."), span("The second one.")]),
            (2, [span("Chapter 2"), span("No ids here."), span("Nor here. Not at all.")]),
        ] {
            let smil = try text("OEBPS/forge-overlays/\(number).smil")
            let document = try text("OEBPS/text/chapter-\(number).xhtml")
            let fragments = smil.components(separatedBy: "<text src=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" }.drop { $0 != "#" }.dropFirst())
            }
            #expect(
                fragments == expectedFragments,
                "one par per sentence of chapter \(number), each at a span added to the book's own document")
            // Nothing but the spans, the body's id and the highlight style was added.
            let original = String(
                decoding: try #require(originals["OEBPS/text/chapter-\(number).xhtml"]), as: UTF8.self)
            let unmarked = document.replacing(/<span id="forge-s-[^"]+">/, with: "").replacing("</span>", with: "")
                .replacing(/<style type="text\/css">[^<]*<\/style>/, with: "").replacing(" id=\"forge-body\"", with: "")
            #expect(unmarked == original, "chapter \(number): \(document)")
            // The seq points at the document's body, by an id the body now has.
            let seq = try #require(smil.firstMatch(of: /epub:textref="[^"#]+#([^"]+)"/)?.1)
            #expect(
                document.contains("<body id=\"\(seq)\"") || document.contains("id=\"\(seq)\""), "seq textref #\(seq)")
            for fragment in fragments {
                #expect(document.contains("id=\"\(fragment)\""), "\(fragment) exists in chapter \(number)")
            }
            let clips = smil.components(separatedBy: "clipBegin=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            #expect(clips == clips.sorted() && Set(clips).count == clips.count, "clips in playing order")
            #expect(smil.contains("../forge-audio/chapter-00\(number).m4a"))
        }
        // Sentences whose markup crosses are one span, taking in the inline elements whole.
        #expect(
            try text("OEBPS/text/chapter-2.xhtml").contains(
                "<span id=\"\(span("Nor here. Not at all."))\">Nor <em>here. Not</em> at <i>all</i>.</span>"))
        // The exported book reads back with the same words: only ids and a highlight style were added.
        let reread = try load(exported)
        #expect(words(reread) == (try project.manifest().items()).flatMap { Tokenizer.words(in: $0.text) }.map(\.text))
    }
}
