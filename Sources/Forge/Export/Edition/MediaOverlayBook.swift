import Foundation
import ZIPFoundation

/// An EPUB 3 read-along edition: one XHTML content document per chapter with an id on every
/// sentence (and word, when asked), a SMIL media overlay per chapter pointing into the chapter's
/// chapter audio (AAC or MP3: ``EPUBAudio``) with clipBegin/clipEnd, and a package document with the overlays' durations.
enum MediaOverlayBook {
    static let activeClass = "-epub-media-overlay-active"
    /// Between a part's title and its chapter's in a chapter title (the splitter joins them so).
    static let partSeparator = " — "

    /// Writes the edition to `url` a chapter at a time: the chapter's audio is made into a file
    /// beside the book (a chapter per core at once) and added to the zip from disk, then its
    /// content document and overlay, so memory holds a few chapters whatever the book's length.
    /// The package and navigation documents, which list every chapter, come last.
    static func write(
        _ book: BookTimeline, settings: ExportSettings, audio: EPUBAudio = .mp3, cover: BookCover? = nil,
        store: ObjectStore, cancellation: CancellationFlag?, modified: Date,
        progress: ExportProgress.Sink? = nil, to url: URL
    ) throws {
        let archive = try EPUBArchive(url: url, modified: modified)
        try archive.add(Array(container.utf8), as: "META-INF/container.xml")
        try archive.add(Array(".\(activeClass) { background-color: #ffd84d; }\n".utf8), as: "OEBPS/style.css")
        var manifestEntries: [String] = []
        var spine: [String] = []
        var durations: [String] = []
        let chapters = book.chapters
        // AAC in MP4 and MP3 are EPUB 3 core media types; WAV and FLAC are not.
        try archive.addAudio(
            as: chapters.map { "OEBPS/audio/\($0.fileStem).\(audio.fileExtension)" },
            jobs: ChapterAudio.encodingJobs(settings), cancellation: cancellation,
            progress: progress,
            encode: { index, file, descriptor, label, stop in
                try audio.write(
                    index, timeline: chapters[index], to: file, descriptor: descriptor, label: label, store: store,
                    settings: settings, stop: stop)
            },
            then: { index in
                let layout = chapters[index]
                let stem = layout.fileStem
                let timeline = try book.timed(layout)
                try archive.add(
                    Array(contentDocument(timeline, settings: settings).utf8), as: "OEBPS/text/\(stem).xhtml")
                try archive.add(
                    Array(
                        overlay(timeline, wordLevel: settings.wordLevelOverlays, audioExtension: audio.fileExtension)
                            .utf8), as: "OEBPS/smil/\(stem).smil")
                manifestEntries.append(
                    "<item id=\"\(stem)\" href=\"text/\(stem).xhtml\" media-type=\"application/xhtml+xml\" media-overlay=\"smil-\(stem)\"/>"
                )
                manifestEntries.append(
                    "<item id=\"smil-\(stem)\" href=\"smil/\(stem).smil\" media-type=\"application/smil+xml\"/>")
                manifestEntries.append(
                    "<item id=\"audio-\(stem)\" href=\"audio/\(stem).\(audio.fileExtension)\" media-type=\"\(audio.mediaType)\"/>"
                )
                spine.append("<itemref idref=\"\(stem)\"/>")
                durations.append(
                    "<meta property=\"media:duration\" refines=\"#smil-\(stem)\">\(clock(layout.durationMs))</meta>")
            })
        if let cover {
            try archive.add(Array(cover.data), as: "OEBPS/images/cover.\(cover.fileExtension)", compressed: false)
            manifestEntries.append(
                "<item id=\"cover-image\" href=\"images/cover.\(cover.fileExtension)\" media-type=\"\(cover.mediaType)\" properties=\"cover-image\"/>"
            )
        }
        try archive.add(Array(navigation(book.chapters, settings: settings).utf8), as: "OEBPS/nav.xhtml")
        manifestEntries.append(
            "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>")
        manifestEntries.append("<item id=\"css\" href=\"style.css\" media-type=\"text/css\"/>")
        let package = packageDocument(
            book, settings: settings, modified: modified, manifest: manifestEntries, spine: spine, durations: durations)
        try archive.add(Array(package.utf8), as: "OEBPS/package.opf")
    }

    /// The package document: the book's metadata (its identifier made from its title and chapters,
    /// `modified`, the overlays' durations), its manifest and spine.
    private static func packageDocument(
        _ book: BookTimeline, settings: ExportSettings, modified: Date, manifest manifestEntries: [String],
        spine: [String], durations: [String]
    ) -> String {
        let identifier =
            "urn:forge:"
            + ContentHash.sha256Hex(Array((settings.title + book.chapters.map(\.fileStem).joined()).utf8)).prefix(32)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="\(XMLText.escaped(settings.language))">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="book-id">\(identifier)</dc:identifier>
            <dc:title>\(XMLText.escaped(settings.title))</dc:title>
            <dc:language>\(XMLText.escaped(settings.language))</dc:language>
            \(settings.author.map { "<dc:creator id=\"author\">\(XMLText.escaped($0))</dc:creator>\n" } ?? "")<meta property="dcterms:modified">\(formatter.string(from: modified))</meta>
            \(accessibilityMetadata(settings).joined(separator: "\n"))
            <meta property="media:duration">\(clock(book.durationMs))</meta>
            \(durations.joined(separator: "\n"))
            <meta property="media:active-class">\(activeClass)</meta>
            </metadata>
            <manifest>
            \(manifestEntries.joined(separator: "\n"))
            </manifest>
            <spine>
            \(spine.joined(separator: "\n"))
            </spine>
            </package>

            """
    }

    /// What a reading system or a library catalogue needs to know of the book's accessibility
    /// (EPUB Accessibility 1.1, schema.org terms): text with audio synchronized to it, either alone
    /// sufficient, a table of contents, no hazards; and who narrates it.
    static func accessibilityMetadata(_ settings: ExportSettings) -> [String] {
        var lines = [
            "<meta property=\"schema:accessMode\">textual</meta>",
            "<meta property=\"schema:accessMode\">auditory</meta>",
            "<meta property=\"schema:accessModeSufficient\">textual</meta>",
            "<meta property=\"schema:accessModeSufficient\">auditory</meta>",
            "<meta property=\"schema:accessModeSufficient\">textual,auditory</meta>",
            "<meta property=\"schema:accessibilityFeature\">synchronizedAudioText</meta>",
            "<meta property=\"schema:accessibilityFeature\">tableOfContents</meta>",
            "<meta property=\"schema:accessibilityFeature\">readingOrder</meta>",
            "<meta property=\"schema:accessibilityHazard\">none</meta>",
            "<meta property=\"schema:accessibilitySummary\">The full text, read aloud by synthesized speech (\(XMLText.escaped(settings.narrator ?? "a text-to-speech voice"))) with every sentence highlighted as it is spoken.</meta>",
        ]
        if let narrator = settings.narrator {
            lines.append("<meta property=\"media:narrator\">\(XMLText.escaped(narrator))</meta>")
        }
        return lines
    }

    /// The `<li>` entries of a table of contents: the chapters of a part (`Chapter.part`, recorded by
    /// the splitter) listed under the part, linked to its first chapter (two levels), each by its own
    /// name (its title without the part's "Book One — " before it); other chapters as they are.
    static func contentsEntries(_ chapters: [(link: String, title: String, part: String?)]) -> [String] {
        var entries: [String] = []
        var index = 0
        while index < chapters.count {
            guard let part = chapters[index].part, !part.isEmpty else {
                entries.append(
                    "<li><a href=\"\(chapters[index].link)\">\(XMLText.escaped(chapters[index].title))</a></li>")
                index += 1
                continue
            }
            var children: [String] = []
            let first = chapters[index].link
            while index < chapters.count, chapters[index].part == part {
                let title = chapters[index].title
                let name =
                    title.hasPrefix(part + partSeparator)
                    ? String(title.dropFirst(part.count + partSeparator.count)) : title
                children.append("<li><a href=\"\(chapters[index].link)\">\(XMLText.escaped(name))</a></li>")
                index += 1
            }
            entries.append(
                "<li><a href=\"\(first)\">\(XMLText.escaped(part))</a>\n<ol>\n\(children.joined(separator: "\n"))\n</ol></li>"
            )
        }
        return entries
    }

    static let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles>
        <rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/>
        </rootfiles>
        </container>

        """

    /// Id of a sentence (`s-<item>-<n>`) or word (`w-<item>-<n>`) in a content document.
    static func sentenceID(_ item: TimedItem, _ sentence: Int) -> String { "s-\(item.record.id)-\(sentence)" }
    static func wordID(_ item: TimedItem, _ word: Int) -> String { "w-\(item.record.id)-\(word)" }

    static func contentDocument(_ timeline: ChapterTimeline, settings: ExportSettings) -> String {
        var body = ""
        for item in timeline.items {
            let (tag, start) = XMLText.block(item)
            body += start
            let scalars = Array(item.record.text.unicodeScalars)
            var cursor = 0
            for sentence in item.sentences {
                body += XMLText.escaped(XMLText.slice(scalars, cursor, sentence.charRange.lowerBound))
                body += "<span id=\"\(sentenceID(item, sentence.index))\">"
                var inner = sentence.charRange.lowerBound
                if settings.wordLevelOverlays {
                    for index in sentence.wordRange {
                        let token = item.words[index].token
                        body += XMLText.escaped(XMLText.slice(scalars, inner, token.start))
                        body +=
                            "<span id=\"\(wordID(item, index))\">\(XMLText.escaped(XMLText.slice(scalars, token.start, token.end)))</span>"
                        inner = token.end
                    }
                }
                body += XMLText.escaped(XMLText.slice(scalars, inner, sentence.charRange.upperBound)) + "</span>"
                cursor = sentence.charRange.upperBound
            }
            body += XMLText.escaped(XMLText.slice(scalars, cursor, scalars.count)) + "</\(tag)>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(XMLText.escaped(settings.language))" lang="\(XMLText.escaped(settings.language))">
            <head><meta charset="utf-8"/><title>\(XMLText.escaped(timeline.chapter.title))</title><link rel="stylesheet" type="text/css" href="../style.css"/></head>
            <body>
            <section epub:type="chapter" id="\(timeline.fileStem)">
            \(body)</section>
            </body>
            </html>

            """
    }

    static func overlay(_ timeline: ChapterTimeline, wordLevel: Bool, audioExtension: String = "mp3") -> String {
        let stem = timeline.fileStem
        var pars = ""
        var number = 0
        func par(_ fragment: String, _ start: Int, _ end: Int) {
            number += 1
            pars += "<par id=\"par\(number)\"><text src=\"../text/\(stem).xhtml#\(fragment)\"/>"
            pars +=
                "<audio src=\"../audio/\(stem).\(audioExtension)\" clipBegin=\"\(clock(start))\" clipEnd=\"\(clock(end))\"/></par>\n"
        }
        for item in timeline.items {
            for sentence in item.sentences {
                if wordLevel {
                    for index in sentence.wordRange {
                        if let timing = item.words[index].timing {
                            par(wordID(item, index), timing.startMs, timing.endMs)
                        }
                    }
                } else {
                    par(sentenceID(item, sentence.index), sentence.startMs, sentence.endMs)
                }
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
            <body>
            <seq id="seq-\(stem)" epub:textref="../text/\(stem).xhtml#\(stem)" epub:type="chapter">
            \(pars)</seq>
            </body>
            </smil>

            """
    }

    static func navigation(_ timelines: [ChapterTimeline], settings: ExportSettings) -> String {
        let entries = contentsEntries(
            timelines.map { (link: "text/\($0.fileStem).xhtml", title: $0.chapter.title, part: $0.chapter.part) })
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(XMLText.escaped(settings.language))">
            <head><meta charset="utf-8"/><title>\(XMLText.escaped(settings.title))</title></head>
            <body>
            <nav epub:type="toc" id="toc"><h1>Contents</h1>
            <ol>
            \(entries.joined(separator: "\n"))
            </ol>
            </nav>
            </body>
            </html>

            """
    }

    /// A SMIL / EPUB clock value, `h:mm:ss.mmm`.
    static func clock(_ ms: Int) -> String {
        "\(ms / 3_600_000):\((ms / 60_000 % 60).zeroPadded(to: 2)):\((ms / 1000 % 60).zeroPadded(to: 2)).\((ms % 1000).zeroPadded(to: 3))"
    }
}
