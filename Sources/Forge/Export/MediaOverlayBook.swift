import Foundation
import ZIPFoundation

/// An EPUB 3 read-along edition: one XHTML content document per chapter with an id on every
/// sentence (and word, when asked), a SMIL media overlay per chapter pointing into the chapter's
/// MP3 audio with clipBegin/clipEnd, and a package document with the overlays' durations.
struct MediaOverlayBook {
    /// Files of the book in zip order (after `mimetype`), paths relative to the zip's root.
    private(set) var files: [(path: String, bytes: [UInt8])] = []
    let fileName: String

    static let activeClass = "-epub-media-overlay-active"

    /// The EPUB's file name: the title's letters and digits joined by "-", kept under 120 bytes
    /// (a file name may have 255), e.g. "pride-and-prejudice.epub".
    static func fileName(forTitle title: String) -> String {
        var slug = ""
        for word in title.lowercased().unicodeScalars.map({ CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }).joined()
            .split(separator: "-") {
            let next = slug.isEmpty ? String(word) : slug + "-" + word
            if next.utf8.count > 120 {
                if slug.isEmpty { slug = String(String.UnicodeScalarView(word.unicodeScalars.prefix(30))) }
                break
            }
            slug = next
        }
        return (slug.isEmpty ? "book" : slug) + ".epub"
    }

    init(timelines: [ChapterTimeline], settings: ExportSettings, store: ObjectStore, cancellation: CancellationFlag? = nil, modified: Date = Date()) throws {
        fileName = Self.fileName(forTitle: settings.title)
        files.append(("META-INF/container.xml", Array(Self.container.utf8)))
        files.append(("OEBPS/style.css", Array(".\(Self.activeClass) { background-color: #ffd84d; }\n".utf8)))
        var manifestEntries: [String] = []
        var spine: [String] = []
        var durations: [String] = []
        var total = 0
        for timeline in timelines {
            let stem = timeline.fileStem
            if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
            let samples = try ChapterAudio.exported(timeline, store: store, settings: settings)
            // MP3 is an EPUB 3 core media type; WAV and FLAC are not.
            files.append(("OEBPS/audio/\(stem).mp3", try SoundFile.encode(samples, sampleRate: timeline.sampleRate, format: .mp3)))
            files.append(("OEBPS/text/\(stem).xhtml", Array(Self.contentDocument(timeline, settings: settings).utf8)))
            files.append(("OEBPS/smil/\(stem).smil", Array(Self.overlay(timeline, wordLevel: settings.wordLevelOverlays).utf8)))
            manifestEntries.append("<item id=\"\(stem)\" href=\"text/\(stem).xhtml\" media-type=\"application/xhtml+xml\" media-overlay=\"smil-\(stem)\"/>")
            manifestEntries.append("<item id=\"smil-\(stem)\" href=\"smil/\(stem).smil\" media-type=\"application/smil+xml\"/>")
            manifestEntries.append("<item id=\"audio-\(stem)\" href=\"audio/\(stem).mp3\" media-type=\"audio/mpeg\"/>")
            spine.append("<itemref idref=\"\(stem)\"/>")
            durations.append("<meta property=\"media:duration\" refines=\"#smil-\(stem)\">\(Self.clock(timeline.durationMs))</meta>")
            total += timeline.durationMs
        }
        files.append(("OEBPS/nav.xhtml", Array(Self.navigation(timelines, settings: settings).utf8)))
        manifestEntries.append("<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>")
        manifestEntries.append("<item id=\"css\" href=\"style.css\" media-type=\"text/css\"/>")
        let identifier = "urn:forge:" + ContentHash.sha256Hex(Array((settings.title + timelines.map(\.fileStem).joined()).utf8)).prefix(32)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let package = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="\(XMLText.escaped(settings.language))">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="book-id">\(identifier)</dc:identifier>
            <dc:title>\(XMLText.escaped(settings.title))</dc:title>
            <dc:language>\(XMLText.escaped(settings.language))</dc:language>
            <meta property="dcterms:modified">\(formatter.string(from: modified))</meta>
            <meta property="media:duration">\(Self.clock(total))</meta>
            \(durations.joined(separator: "\n"))
            <meta property="media:active-class">\(Self.activeClass)</meta>
            </metadata>
            <manifest>
            \(manifestEntries.joined(separator: "\n"))
            </manifest>
            <spine>
            \(spine.joined(separator: "\n"))
            </spine>
            </package>

            """
        files.append(("OEBPS/package.opf", Array(package.utf8)))
    }

    /// The book as an EPUB (zip): `mimetype` first and stored uncompressed, as the OCF spec
    /// requires, everything else deflated.
    func zipped() throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        let mimetype = Data("application/epub+zip".utf8)
        try archive.addEntry(with: "mimetype", type: .file, uncompressedSize: Int64(mimetype.count), compressionMethod: .none) { position, size in
            mimetype.subdata(in: Int(position)..<Int(position) + size)
        }
        for file in files {
            let data = Data(file.bytes)
            // Audio is already compressed; deflating it again only costs time.
            let method: CompressionMethod = file.path.hasSuffix(".mp3") ? .none : .deflate
            try archive.addEntry(with: file.path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: method) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard let data = archive.data else { throw ExportError.writeFailed(path: fileName, reason: "the zip archive could not be finished") }
        return [UInt8](data)
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
                        body += "<span id=\"\(wordID(item, index))\">\(XMLText.escaped(XMLText.slice(scalars, token.start, token.end)))</span>"
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
            <section epub:type="chapter">
            \(body)</section>
            </body>
            </html>

            """
    }

    static func overlay(_ timeline: ChapterTimeline, wordLevel: Bool) -> String {
        let stem = timeline.fileStem
        var pars = ""
        var number = 0
        func par(_ fragment: String, _ start: Int, _ end: Int) {
            number += 1
            pars += "<par id=\"par\(number)\"><text src=\"../text/\(stem).xhtml#\(fragment)\"/>"
            pars += "<audio src=\"../audio/\(stem).mp3\" clipBegin=\"\(clock(start))\" clipEnd=\"\(clock(end))\"/></par>\n"
        }
        for item in timeline.items {
            for sentence in item.sentences {
                if wordLevel {
                    for index in sentence.wordRange {
                        if let timing = item.words[index].timing { par(wordID(item, index), timing.startMs, timing.endMs) }
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
            <seq id="seq-\(stem)" epub:textref="../text/\(stem).xhtml" epub:type="chapter">
            \(pars)</seq>
            </body>
            </smil>

            """
    }

    static func navigation(_ timelines: [ChapterTimeline], settings: ExportSettings) -> String {
        let entries = timelines.map { "<li><a href=\"text/\($0.fileStem).xhtml\">\(XMLText.escaped($0.chapter.title))</a></li>" }
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
        "\(ms / 3_600_000):\(CaptionCue.pad(ms / 60_000 % 60, 2)):\(CaptionCue.pad(ms / 1000 % 60, 2)).\(CaptionCue.pad(ms % 1000, 3))"
    }
}
