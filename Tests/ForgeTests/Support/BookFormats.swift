import Foundation
import ZIPFoundation

/// One book written as plain text, Markdown, HTML and EPUB by the tests, so each reader can be
/// checked against the others on the same words.
struct BookFormats {
    struct Chapter {
        var title: String
        var paragraphs: [String]
    }

    var chapters: [Chapter]

    /// Reads a plain-text book: "Chapter N" lines start chapters, blank lines separate paragraphs.
    init(plainText: String) {
        var chapters: [Chapter] = []
        for block in plainText.components(separatedBy: "\n\n") {
            let paragraph = block.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
                .trimmingCharacters(in: .whitespaces)
            guard !paragraph.isEmpty else { continue }
            if paragraph.lowercased().hasPrefix("chapter "), paragraph.count < 20 {
                chapters.append(Chapter(title: paragraph, paragraphs: []))
            } else if chapters.isEmpty {
                chapters.append(Chapter(title: "Opening", paragraphs: [paragraph]))
            } else {
                chapters[chapters.count - 1].paragraphs.append(paragraph)
            }
        }
        self.chapters = chapters
    }

    /// The first `count` chapters of the shared corpus, or of the shipped sample when the corpus is not beside the package.
    static func corpus(chapters count: Int) -> BookFormats {
        let corpus = Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent(
            "shared/corpus/pride-and-prejudice.txt")
        let text = (try? String(contentsOf: corpus, encoding: .utf8)) ?? Fixtures.sampleText
        let lines = text.components(separatedBy: "\n")
        guard let first = lines.firstIndex(where: { $0.hasPrefix("Chapter 1") }) else {
            return BookFormats(plainText: text)
        }
        let end =
            lines[(first + 1)...].firstIndex(where: { $0.hasPrefix("Chapter \(count + 1)") && $0.count < 20 })
            ?? lines.count
        return BookFormats(plainText: lines[first..<end].joined(separator: "\n"))
    }

    var plainText: String {
        chapters.map { chapter in ([chapter.title] + chapter.paragraphs).joined(separator: "\n\n") }.joined(
            separator: "\n\n\n") + "\n"
    }

    var markdown: String {
        chapters.map { chapter in (["# " + chapter.title] + chapter.paragraphs).joined(separator: "\n\n") }.joined(
            separator: "\n\n") + "\n"
    }

    var html: String {
        var body = ""
        for (number, chapter) in chapters.enumerated() {
            body += "<h1 id=\"chapter-\(number + 1)\">\(Self.escaped(chapter.title))</h1>\n"
            for (index, paragraph) in chapter.paragraphs.enumerated() {
                body += "<p id=\"c\(number + 1)p\(index + 1)\">\(Self.escaped(paragraph))</p>\n"
            }
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Pride and Prejudice</title></head>
            <body>
            \(body)</body></html>

            """
    }

    /// Options for writing an EPUB, including ways to break it.
    struct EPUBOptions {
        var version = 3
        var mimetype = "application/epub+zip"
        var includeContainer = true
        /// Spine items listed in the package but left out of the archive.
        var missingDocuments: Set<Int> = []
        /// Extra entries, e.g. one named "../../evil.txt".
        var extraEntries: [(path: String, data: Data)] = []
        /// Front matter put first in the spine (a copyright page).
        var frontMatter = true
        /// The element of each chapter's heading; below h2 it starts no chapter by itself, so chapters can only come from the table of contents.
        var headingTag = "h1"
        /// A cover image (PNG) listed with the `cover-image` property.
        var coverPNG: Data?
        /// Parts: the chapters (by index) listed under each in the table of contents; chapters in no
        /// part are listed at the top level.
        var parts: [(title: String, chapters: Range<Int>)] = []
        /// Each part gets a page of its own (its title as an `h1`) that its entry links to; otherwise
        /// a part's entry links to its first chapter.
        var partPages = false
    }

    /// An EPUB: one XHTML document per chapter, a copyright page first, and a table of contents
    /// (the EPUB 3 nav document, or for version 2 an NCX).
    func writeEPUB(to url: URL, options: EPUBOptions = EPUBOptions()) throws {
        var files: [(path: String, data: Data, compress: Bool)] = []
        files.append(("mimetype", Data(options.mimetype.utf8), false))
        if options.includeContainer {
            files.append(
                (
                    "META-INF/container.xml",
                    Data(
                        """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                          <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
                        </container>
                        """.utf8), true
                ))
        }
        var manifest = ""
        var spine = ""
        var nav = ""
        var ncx = ""
        if options.frontMatter {
            files.append(
                (
                    "OEBPS/text/copyright.xhtml",
                    Data(
                        Self.xhtml(
                            title: "Copyright", body: "<p id=\"rights\">This edition is in the public domain.</p>"
                        ).utf8), true
                ))
            manifest += "<item id=\"copyright\" href=\"text/copyright.xhtml\" media-type=\"application/xhtml+xml\"/>\n"
            spine += "<itemref idref=\"copyright\"/>\n"
        }
        var openPart: Int?
        func closePart() {
            guard openPart != nil else { return }
            nav += "</ol></li>\n"
            ncx += "</navPoint>\n"
            openPart = nil
        }
        for (number, chapter) in chapters.enumerated() {
            let name = "chapter-\(number + 1).xhtml"
            if let open = openPart, !options.parts[open].chapters.contains(number) { closePart() }
            if let index = options.parts.firstIndex(where: { $0.chapters.first == number }) {
                let part = options.parts[index]
                var link = "text/\(name)#heading"
                if options.partPages {
                    let page = "part-\(index + 1).xhtml"
                    files.append(
                        (
                            "OEBPS/text/\(page)",
                            Data(
                                Self.xhtml(title: part.title, body: "<h1 id=\"part\">\(Self.escaped(part.title))</h1>")
                                    .utf8), true
                        ))
                    manifest +=
                        "<item id=\"part\(index + 1)\" href=\"text/\(page)\" media-type=\"application/xhtml+xml\"/>\n"
                    spine += "<itemref idref=\"part\(index + 1)\"/>\n"
                    link = "text/\(page)"
                }
                nav += "<li><a href=\"\(link)\">\(Self.escaped(part.title))</a><ol>\n"
                ncx +=
                    "<navPoint id=\"part\(index + 1)\"><navLabel><text>\(Self.escaped(part.title))</text></navLabel><content src=\"\(link)\"/>\n"
                openPart = index
            }
            var body =
                "<section epub:type=\"chapter\"><\(options.headingTag) id=\"heading\">\(Self.escaped(chapter.title))</\(options.headingTag)>\n"
            for (index, paragraph) in chapter.paragraphs.enumerated() {
                body += "<p id=\"p\(index + 1)\">\(Self.escaped(paragraph))</p>\n"
            }
            body += "</section>"
            if !options.missingDocuments.contains(number) {
                files.append(("OEBPS/text/\(name)", Data(Self.xhtml(title: chapter.title, body: body).utf8), true))
            }
            manifest += "<item id=\"ch\(number + 1)\" href=\"text/\(name)\" media-type=\"application/xhtml+xml\"/>\n"
            spine += "<itemref idref=\"ch\(number + 1)\"/>\n"
            nav += "<li><a href=\"text/\(name)#heading\">\(Self.escaped(chapter.title))</a></li>\n"
            ncx += """
                <navPoint id="np\(number + 1)" playOrder="\(number + 1)"><navLabel><text>\(Self.escaped(chapter.title))</text></navLabel><content src="text/\(name)#heading"/></navPoint>

                """
        }
        closePart()
        if let cover = options.coverPNG {
            files.append(("OEBPS/images/cover.png", cover, false))
            manifest +=
                "<item id=\"cover\" href=\"images/cover.png\" media-type=\"image/png\" properties=\"cover-image\"/>\n"
        }
        if options.version == 3 {
            files.append(
                (
                    "OEBPS/nav.xhtml",
                    Data(
                        Self.xhtml(
                            title: "Contents",
                            body: "<nav epub:type=\"toc\" id=\"toc\"><h1>Contents</h1><ol>\n\(nav)</ol></nav>"
                        ).utf8), true
                ))
            manifest +=
                "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n"
        } else {
            files.append(
                (
                    "OEBPS/toc.ncx",
                    Data(
                        """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>Pride and Prejudice</text></docTitle>
                        <navMap>
                        \(ncx)</navMap></ncx>
                        """.utf8), true
                ))
            manifest += "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>\n"
        }
        files.append(
            (
                "OEBPS/content.opf",
                Data(
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <package xmlns="http://www.idpf.org/2007/opf" version="\(options.version).0" unique-identifier="id">
                      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                        <dc:identifier id="id">urn:uuid:00000000-0000-0000-0000-000000000001</dc:identifier>
                        <dc:title>Pride and Prejudice</dc:title><dc:language>en</dc:language>
                      </metadata>
                      <manifest>
                    \(manifest)  </manifest>
                      <spine\(options.version == 2 ? " toc=\"ncx\"" : "")>
                    \(spine)  </spine>
                    </package>
                    """.utf8), true
            ))
        for entry in options.extraEntries { files.append((entry.path, entry.data, true)) }

        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        for file in files {
            try archive.addEntry(
                with: file.path, type: .file, uncompressedSize: Int64(file.data.count),
                compressionMethod: file.compress ? .deflate : .none
            ) { position, size in
                file.data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    static func xhtml(title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en">
        <head><title>\(escaped(title))</title></head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
