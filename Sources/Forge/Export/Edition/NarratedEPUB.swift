import Foundation
import ZIPFoundation

/// The book's own EPUB 3 with media overlays added: when every item came from one EPUB 3 source,
/// the export keeps its documents, images and styles, and adds the chapter audio (AAC or MP3: ``EPUBAudio``), a SMIL
/// overlay per content document, and the overlay metadata in the package document. Each sentence
/// is wrapped in a span of its own (`forge-s-<item>-<n>`, ``SentenceSpans``) where the markup allows;
/// elsewhere the overlay points at the paragraph's own element id, or one added (`forge-N`), so no
/// audio is left out of the overlays.
struct NarratedEPUB {
    let fileName: String
    /// The book's entries in zip order, rewritten where overlays were added; the chapter audio is
    /// encoded when the book is written.
    private(set) var files: [(path: String, data: Data)]
    /// The SMIL overlays added, one per content document with items.
    private(set) var overlays: [(path: String, data: Data)]
    /// Where the chapter audio goes in the zip (`<package folder>/forge-audio/`).
    private let audioFolder: String
    /// How the chapter audio is carried (AAC or MP3).
    private let audio: EPUBAudio
    /// The reader's recording, carried as it came instead of the chapter audio (a sync of MP3 or AAC).
    private let recording: CarriedRecording?
    /// The edition's date: its `dcterms:modified` and its entries' times.
    private let modified: Date

    /// The longest silence or unread speech between two sentences that a sentence's clip runs on over.
    static let longestJoinedGapMs = 5_000

    /// The EPUB every item of the timelines came from, when there is exactly one and it is still
    /// there and is EPUB 3 (EPUB 2 has no media overlays: such books get the generated read-along edition).
    static func sourceBook(of timelines: [ChapterTimeline]) -> URL? {
        sourceBook(ofPaths: timelines.lazy.flatMap { $0.items.lazy.map(\.record.sourcePath) })
    }

    /// The EPUB the items read from `sourcePaths` all come from, if they come from one.
    static func sourceBook(ofPaths sourcePaths: some Sequence<String>) -> URL? {
        var books = Set<String>()
        for sourcePath in sourcePaths {
            guard let book = split(sourcePath)?.book else { return nil }
            books.insert(book)
        }
        guard books.count == 1, let path = books.first, FileManager.default.fileExists(atPath: path) else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// `book.epub!/OEBPS/ch1.xhtml` → (`book.epub`, `OEBPS/ch1.xhtml`).
    static func split(_ sourcePath: String) -> (book: String, document: String)? {
        guard let marker = sourcePath.range(of: "!/") else { return nil }
        return (String(sourcePath[..<marker.lowerBound]), String(sourcePath[marker.upperBound...]))
    }

    /// `settings` give the author and narrator, `modified` the edition's `dcterms:modified`.
    /// Each chapter's sentences are read from `timeline` one chapter at a time (its words are not
    /// kept). With a `recording` (a sync), the overlays play the reader's own audio files, which
    /// the chapters' items tile end to end, instead of chapter audio made for the book.
    init?(
        book: URL, timeline: BookTimeline, settings: ExportSettings, audio: EPUBAudio = .mp3,
        recording: CarriedRecording? = nil, modified: Date
    ) throws {
        let timelines = timeline.chapters
        self.recording = recording
        self.modified = modified
        self.audio = audio
        let (original, packagePath) = try EPUBReader().entries(book, name: book.path)
        var files = Dictionary(original.map { ($0.path, $0.data) }, uniquingKeysWith: { first, _ in first })
        guard var package = files[packagePath].map({ String(decoding: $0, as: UTF8.self) }),
            let packageTag = package.range(of: "<package"),
            package[packageTag.upperBound...].prefix(400).contains("version=\"3")
        else {
            return nil
        }
        let folder = EPUBReader.folder(of: packagePath)
        let prefix = folder.isEmpty ? "" : folder + "/"
        // A book that already has media overlays (an earlier narration) gets Forge's instead: two
        // overlays of one document are an error (MED_011), and the old ones time other audio.
        for item in PackageXML(package).all("item") where item.attributes["media-type"] == "application/smil+xml" {
            guard let id = item.attributes["id"], let href = item.attributes["href"] else { continue }
            package = Self.removingOverlay(id: id, from: package)
            if let path = EPUBReader.resolve(href, in: folder) { files[path] = nil }
        }
        var documentItems: [String: (id: String, href: String, mediaType: String)] = [:]
        for item in PackageXML(package).all("item") {
            guard let id = item.attributes["id"], let href = item.attributes["href"],
                let path = EPUBReader.resolve(href, in: folder)
            else { continue }
            documentItems[path] = (id, href, item.attributes["media-type"] ?? "")
        }

        let (documents, itemsByDocument) = try Self.itemsByDocument(
            timeline, recording: recording, documents: Set(documentItems.keys))

        var manifestAdditions = Self.audioItems(timelines, audio: audio, recording: recording)
        var metadataAdditions: [String] = []
        // The book's duration is the sum of its overlays' (EPUB Media Overlays; what reading systems check).
        var overlaysMs = 0
        var newPaths: [String] = []
        for (number, document) in documents.enumerated() {
            guard let manifestItem = documentItems[document], let data = files[document] else { continue }
            let overlay = try Self.overlay(
                of: document, item: manifestItem, data: data, items: itemsByDocument[document] ?? [], book: book.path,
                audio: audio, recording: recording)
            files[document] = overlay.document
            let smilID = "forge-smil-\(number + 1)"
            let smilPath = "\(prefix)forge-overlays/\(number + 1).smil"
            let smil = overlay.smil
            files[smilPath] = Data(smil.utf8)
            newPaths.append(smilPath)
            manifestAdditions.append(
                "<item id=\"\(smilID)\" href=\"forge-overlays/\(number + 1).smil\" media-type=\"application/smil+xml\"/>"
            )
            let duration = overlay.durationMs
            overlaysMs += duration
            metadataAdditions.append(
                "<meta property=\"media:duration\" refines=\"#\(smilID)\">\(MediaOverlayBook.clock(duration))</meta>")
            package = Self.addAttribute("media-overlay=\"\(smilID)\"", toItem: manifestItem.id, in: package)
        }
        package = Self.package(
            package, adding: manifestAdditions, metadata: metadataAdditions, overlaysMs: overlaysMs, settings: settings,
            modified: modified)
        files[packagePath] = Data(package.utf8)

        var ordered: [(path: String, data: Data)] = []
        // Entries removed above (a replaced overlay) are left out.
        for entry in original { if let data = files[entry.path] { ordered.append((entry.path, data)) } }
        self.files = ordered
        overlays = newPaths.map { ($0, files[$0]!) }
        audioFolder = prefix + "forge-audio"
        fileName = book.lastPathComponent
    }

    /// Each document's items in reading order, with the chapter audio they play from (none with a
    /// `recording`: its files are named by the clips), only those in `documents` and with audio.
    private static func itemsByDocument(
        _ timeline: BookTimeline, recording: CarriedRecording?, documents known: Set<String>
    ) throws -> (documents: [String], items: [String: [(item: TimedItem, stem: String)]]) {
        var documents: [String] = []
        var itemsByDocument: [String: [(item: TimedItem, stem: String)]] = [:]
        // Where the recording has reached: items are its pieces in order, end to end.
        var recordingSamples: Int64 = 0
        for layout in timeline.chapters {
            for var item in try timeline.timed(layout).items {
                item.words = []
                var stem = layout.fileStem
                if recording != nil {
                    // To the recording's time; an item it does not hold was given one silent sample, not of the recording.
                    let shiftMs = Int(
                        (recordingSamples - Int64(item.startSample)) * 1000 / Int64(max(1, layout.sampleRate)))
                    recordingSamples += Int64(item.sampleCount > 1 ? item.sampleCount : 0)
                    (item.startMs, item.endMs) = (item.startMs + shiftMs, item.endMs + shiftMs)
                    for index in item.sentences.indices {
                        item.sentences[index].startMs += shiftMs
                        item.sentences[index].endMs += shiftMs
                    }
                    stem = ""
                }
                // An item the recording does not hold (a sync's front matter) has no audio and no place in an overlay.
                guard item.endMs > item.startMs, let document = Self.split(item.record.sourcePath)?.document,
                    known.contains(document)
                else { continue }
                if itemsByDocument[document] == nil { documents.append(document) }
                itemsByDocument[document, default: []].append((item, stem))
            }
        }
        return (documents, itemsByDocument)
    }

    /// The package's items for the audio the overlays play: the reader's recording's files, or
    /// each chapter's audio.
    private static func audioItems(_ timelines: [ChapterTimeline], audio: EPUBAudio, recording: CarriedRecording?)
        -> [String]
    {
        if let recording {
            return recording.files.indices.map {
                "<item id=\"forge-audio-\($0 + 1)\" href=\"forge-audio/\(recording.name($0))\" media-type=\"\(recording.mediaType)\"/>"
            }
        }
        return timelines.map {
            "<item id=\"forge-audio-\($0.fileStem)\" href=\"forge-audio/\($0.fileStem).\(audio.fileExtension)\" media-type=\"\(audio.mediaType)\"/>"
        }
    }

    /// One document's media overlay: the document with an id added where an item points without
    /// one (and on its body) and the active class's style, its SMIL, and the overlay's duration.
    private static func overlay(
        of document: String, item manifestItem: (id: String, href: String, mediaType: String), data: Data,
        items: [(item: TimedItem, stem: String)], book: String, audio: EPUBAudio, recording: CarriedRecording?
    ) throws -> (document: Data, smil: String, durationMs: Int) {
        let text = try SourceReader.decode(data, file: "\(book)!/\(document)")
        let mode: HTMLReader.Mode = manifestItem.mediaType == "text/html" ? .html : .xhtml
        let blocks = try HTMLReader(mode: mode).read(text, path: "\(book)!/\(document)").blocks
        var scalars = Array(text.unicodeScalars)
        let marks = Self.marks(items: items, scalars: scalars, blocks: blocks, isHTML: mode == .html)
        var insertions = marks.insertions
        let pars = marks.pars
        // The overlay's `seq` points at the document's body (EPUB needs a fragment there).
        var bodyID = Self.bodyID(in: scalars)
        if bodyID == nil, let offset = Self.bodyTagEnd(in: scalars) {
            insertions.append((offset, " id=\"forge-body\""))
            bodyID = "forge-body"
        }
        // In one pass; at one offset in the order added, so a span's end goes before the next one's start.
        var marked: [Unicode.Scalar] = []
        marked.reserveCapacity(scalars.count + insertions.count * 40)
        var copied = 0
        for (_, insertion) in insertions.enumerated().sorted(by: {
            ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset)
        }) {
            marked.append(contentsOf: scalars[copied..<insertion.offset])
            marked.append(contentsOf: insertion.text.unicodeScalars)
            copied = insertion.offset
        }
        marked.append(contentsOf: scalars[copied...])
        scalars = marked
        var rewritten = String(scalars: scalars)
        if let head = rewritten.range(of: "</head>") {
            rewritten.insert(
                contentsOf:
                    "<style type=\"text/css\">.\(MediaOverlayBook.activeClass) { background-color: #ffd84d; }</style>",
                at: head.lowerBound)
        }

        let clips = Self.clips(pars, audio: audio, recording: recording)
        let smil = Self.smil(clips, href: manifestItem.href, bodyID: bodyID)
        return (Data(rewritten.utf8), smil, clips.reduce(0) { $0 + $1.end - $1.start })
    }

    /// A par of an overlay: the fragment its text points at, the chapter audio's stem (empty for
    /// a recording) and its time.
    private typealias Par = (fragment: String, stem: String, start: Int, end: Int)
    /// A clip of an overlay: the fragment, the audio file it plays and its time in that file.
    private typealias Clip = (fragment: String, source: String, start: Int, end: Int)

    /// Where each item's sentences point, and the insertions into the document that make them: spans
    /// added around them, or (where markup does not allow one) the item's element's id, or an id
    /// added to its block.
    private static func marks(
        items: [(item: TimedItem, stem: String)], scalars: [Unicode.Scalar], blocks: [DocumentBlock], isHTML: Bool
    ) -> (insertions: [(offset: Int, text: String)], pars: [Par]) {
        var insertions: [(offset: Int, text: String)] = []
        var blockIDs: [Int: String] = [:]
        var sentenceSpans = SentenceSpans(scalars: scalars, blocks: blocks, isHTML: isHTML)
        var pars: [Par] = []
        for (item, stem) in items {
            if let spans = sentenceSpans.spans(for: item) {
                for span in spans {
                    let id = "forge-s-\(item.record.id)-\(span.sentences.lowerBound)"
                    insertions.append((span.start, "<span id=\"\(id)\">"))
                    insertions.append((span.end, "</span>"))
                    let timed = item.sentences[span.sentences].filter { $0.endMs > $0.startMs }
                    if let first = timed.first, let last = timed.last {
                        pars.append((id, stem, first.startMs, last.endMs))
                    }
                }
                continue
            }
            var fragment = item.record.elementID
            if fragment == nil,
                let index = blocks.firstIndex(where: { block in
                    guard let first = block.origins.first, let last = block.origins.last else { return false }
                    return first <= item.record.sourceStart && item.record.sourceStart <= last
                }), let element = blocks[index].element
            {
                let id = "forge-\(index + 1)"
                if blockIDs[index] == nil {
                    insertions.append((element.offset + 1 + element.name.unicodeScalars.count, " id=\"\(id)\""))
                }
                blockIDs[index] = id
                fragment = id
            }
            guard let fragment else { continue }
            if let last = pars.last, last.fragment == fragment, last.stem == stem {
                pars[pars.count - 1].end = item.endMs
            } else {
                pars.append((fragment, stem, item.startMs, item.endMs))
            }
        }
        return (insertions, pars)
    }

    /// Each par's clips: in its chapter's audio, or in the files of the reader's recording that
    /// play it (two, with a sentence the tracks were cut in: two pars pointing at it). Clips run on
    /// to the next one's start, so the recording plays whole, pauses included; a long gap (speech
    /// not in the text: a credit, a retake) is left out.
    private static func clips(_ pars: [Par], audio: EPUBAudio, recording: CarriedRecording?) -> [Clip] {
        var clips: [Clip] = []
        for par in pars {
            if let recording {
                clips += recording.clips(start: par.start, end: par.end).map {
                    (par.fragment, recording.name($0.file), $0.start, $0.end)
                }
            } else if par.end > par.start {
                clips.append((par.fragment, "\(par.stem).\(audio.fileExtension)", par.start, par.end))
            }
        }
        for index in clips.indices.dropLast() where clips[index + 1].source == clips[index].source {
            let gap = clips[index + 1].start - clips[index].end
            if gap > 0, gap <= Self.longestJoinedGapMs { clips[index].end = clips[index + 1].start }
        }
        return clips
    }

    /// The SMIL document of a document's clips (`href`: the document's, `bodyID`: its body's id).
    private static func smil(_ clips: [Clip], href: String, bodyID: String?) -> String {
        var body = ""
        for (index, clip) in clips.enumerated() {
            body +=
                "<par id=\"par\(index + 1)\"><text src=\"../\(XMLText.escaped(href))#\(XMLText.escaped(clip.fragment))\"/>"
            body +=
                "<audio src=\"../forge-audio/\(XMLText.escaped(clip.source))\" clipBegin=\"\(MediaOverlayBook.clock(clip.start))\" clipEnd=\"\(MediaOverlayBook.clock(clip.end))\"/></par>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
            <body>
            <seq id="seq1" epub:textref="../\(XMLText.escaped(href))\(bodyID.map { "#" + XMLText.escaped($0) } ?? "")">
            \(body)</seq>
            </body>
            </smil>

            """
    }

    /// The package document with the overlays' items and metadata: the book's total duration (in
    /// place of one an earlier narration declared), `dcterms:modified`, accessibility metadata when
    /// the book declares none, the author, and the active class.
    private static func package(
        _ package: String, adding manifestItems: [String], metadata additions: [String], overlaysMs: Int,
        settings: ExportSettings, modified: Date
    ) -> String {
        var package = package
        var metadata = additions
        // The book's total replaces one an earlier narration declared.
        package = package.replacingOccurrences(
            of: #"<meta\s+property\s*=\s*["']media:duration["']\s*>[^<]*</meta>\s*"#, with: "",
            options: .regularExpression)
        metadata.append("<meta property=\"media:duration\">\(MediaOverlayBook.clock(overlaysMs))</meta>")
        // This is a new edition of the book: modified now, with accessibility metadata it did not declare.
        package = Self.replacingModified(in: package, with: modified)
        // A book that declares its own accessibility keeps its statements; one that declares none gets Forge's.
        if !package.contains("schema:accessMode") {
            metadata.append(
                contentsOf: MediaOverlayBook.accessibilityMetadata(settings).filter { !package.contains($0) })
        }
        if let author = settings.author, !package.contains("<dc:creator") {
            metadata.append("<dc:creator>\(XMLText.escaped(author))</dc:creator>")
        }
        if !package.contains("media:active-class") {
            metadata.append("<meta property=\"media:active-class\">\(MediaOverlayBook.activeClass)</meta>")
        }
        if let end = package.range(of: "</metadata>") {
            package.insert(contentsOf: metadata.joined(separator: "\n") + "\n", at: end.lowerBound)
        }
        if let end = package.range(of: "</manifest>") {
            package.insert(contentsOf: manifestItems.joined(separator: "\n") + "\n", at: end.lowerBound)
        }
        return package
    }

    /// The id of the document's `<body>`, if it has one.
    static func bodyID(in scalars: [Unicode.Scalar]) -> String? {
        guard let end = bodyTagEnd(in: scalars) else { return nil }
        var start = end
        while start > 0, !(scalars[start] == "<") { start -= 1 }
        let tag = String(scalars: scalars[start..<end])
        guard let match = tag.firstMatch(of: #/\sid\s*=\s*["']([^"']+)["']/#) else { return nil }
        return String(match.1)
    }

    /// The offset just after `<body`'s name (where an attribute can be inserted), or nil.
    static func bodyTagEnd(in scalars: [Unicode.Scalar]) -> Int? {
        let name: [Unicode.Scalar] = ["<", "b", "o", "d", "y"]
        var index = 0
        while index + name.count < scalars.count {
            if scalars[index] == "<",
                zip(scalars[index..<(index + name.count)], name).allSatisfy({
                    $0.properties.lowercaseMapping == String($1)
                }),
                let next = scalars[index + name.count] as Unicode.Scalar?,
                next == ">" || next == " " || next == "\n" || next == "\t" || next == "\r" || next == "/"
            {
                return index + name.count
            }
            index += 1
        }
        return nil
    }

    /// The package with `dcterms:modified` set to `date` (added when missing).
    static func replacingModified(in package: String, with date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let meta = "<meta property=\"dcterms:modified\">\(formatter.string(from: date))</meta>"
        if let range = package.firstRange(of: #/<meta\s+property\s*=\s*["']dcterms:modified["'][^>]*>[^<]*</meta>/#) {
            return package.replacingCharacters(in: range, with: meta)
        }
        guard let end = package.range(of: "</metadata>") else { return package }
        var result = package
        result.insert(contentsOf: meta + "\n", at: end.lowerBound)
        return result
    }

    /// The package without the overlay `id`: its manifest item, its `media:duration` and the
    /// `media-overlay` attributes that point at it.
    static func removingOverlay(id: String, from package: String) -> String {
        let escaped = NSRegularExpression.escapedPattern(for: id)
        var result = package
        for pattern in [
            #"<item\b[^>]*\bid\s*=\s*["']"# + escaped + #"["'][^>]*/?>\s*"#,
            #"<meta\b[^>]*\brefines\s*=\s*["']#"# + escaped + #"["'][^>]*>[^<]*</meta>\s*"#,
            #"\s+media-overlay\s*=\s*["']"# + escaped + #"["']"#,
        ] {
            result = result.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        return result
    }

    /// Adds an attribute to the package's `<item>` with the given id.
    static func addAttribute(_ attribute: String, toItem id: String, in package: String) -> String {
        var searchStart = package.startIndex
        while let open = package.range(of: "<item", range: searchStart..<package.endIndex) {
            guard let close = package.range(of: ">", range: open.upperBound..<package.endIndex) else { break }
            let tag = package[open.lowerBound..<close.upperBound]
            if tag.contains("id=\"\(id)\"") || tag.contains("id='\(id)'") {
                guard !tag.contains("media-overlay=") else { return package }
                var result = package
                let insertAt =
                    package[close.lowerBound...].hasPrefix(">")
                        && package[package.index(before: close.lowerBound)] == "/"
                    ? package.index(before: close.lowerBound) : close.lowerBound
                result.insert(contentsOf: " " + attribute + " ", at: insertAt)
                return result
            }
            searchStart = close.upperBound
        }
        return package
    }

    /// Writes the book to `url`: its own entries (`mimetype` first), then each chapter's audio,
    /// encoded to a file (a chapter per core at once) and copied into the zip — or the reader's
    /// recording, its files copied as they are — then the overlays.
    func write(
        to url: URL, timelines: [ChapterTimeline], settings: ExportSettings, store: ObjectStore,
        cancellation: CancellationFlag?, progress: ExportProgress.Sink? = nil
    ) throws {
        let archive = try EPUBArchive(url: url, modified: modified)
        for file in files where file.path != "mimetype" {
            try archive.add(
                Array(file.data), as: file.path,
                compressed: !file.path.hasSuffix(".mp3") && !file.path.hasSuffix(".m4a"))
        }
        if let recording {
            for (index, file) in recording.files.enumerated() {
                if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                try archive.addStored(file.url, as: "\(audioFolder)/\(recording.name(index))")
                progress?(ExportProgress(phase: "epub", done: index + 1, total: recording.files.count))
            }
            for overlay in overlays { try archive.add(Array(overlay.data), as: overlay.path) }
            return
        }
        try archive.addAudio(
            as: timelines.map { "\(audioFolder)/\($0.fileStem).\(audio.fileExtension)" },
            jobs: ChapterAudio.encodingJobs(settings), cancellation: cancellation,
            progress: progress,
            encode: { [audio] index, file, descriptor, label, stop in
                try audio.write(
                    index, timeline: timelines[index], to: file, descriptor: descriptor, label: label, store: store,
                    settings: settings, stop: stop)
            })
        for overlay in overlays { try archive.add(Array(overlay.data), as: overlay.path) }
    }
}
