import Foundation
import ZIPFoundation

/// Reads an EPUB 2 or 3 book: its content documents in spine order, chapter titles from the
/// EPUB 3 navigation document or the EPUB 2 NCX, each paragraph with its element id.
///
/// Nothing is extracted to disk. The archive is checked before anything is read: an entry whose
/// path leaves the archive (zip-slip) refuses the whole book, and every entry read is bounded
/// (``Limits``) in size and in compression ratio, so a zip bomb is refused without being expanded.
package struct EPUBReader: Sendable {
    /// Bounds on what reading a book may expand.
    package struct Limits: Sendable, Equatable {
        /// The most one entry may expand to.
        package var entryBytes: Int
        /// The most all entries read may expand to together.
        package var totalBytes: Int
        /// The highest compression ratio accepted for an entry over 1 MiB (text compresses about 3 to 1; zeros 1,000 to 1).
        package var compressionRatio: Int

        package init(entryBytes: Int = 64 << 20, totalBytes: Int = 512 << 20, compressionRatio: Int = 100) {
            self.entryBytes = entryBytes
            self.totalBytes = totalBytes
            self.compressionRatio = compressionRatio
        }
    }

    /// A content document listed in the spine.
    package struct SpineItem: Sendable, Equatable {
        package var idref: String
        /// The document's path inside the archive.
        package var path: String
        package var mediaType: String
        /// False for `linear="no"` items (notes, pop-ups), which are skipped unless included.
        package var linear: Bool
    }

    /// A book as read: its spine and the documents read from it.
    package struct Book: Sendable, Equatable {
        package var title: String?
        package var language: String?
        package var spine: [SpineItem]
        package var documents: [StructuredDocument]
        /// True when the table of contents placed at least one chapter.
        package var chaptersFromContents: Bool
    }

    package var limits: Limits
    /// Spine items (idref, path, or file name) to read even if marked `linear="no"`.
    package var include: [String]
    /// Spine items (idref, path, or file name) not to read: a cover, front or back matter, footnotes.
    package var exclude: [String]

    /// Read Project Gutenberg's boilerplate in content documents too (``HTMLReader/keepsGutenbergMatter``).
    package var keepsGutenbergMatter: Bool
    /// Speak title pages, imprints, colophons and copyright pages too (``FrontMatter/unspokenTypes``).
    package var keepsFrontMatter: Bool

    package init(
        limits: Limits = Limits(), include: [String] = [], exclude: [String] = [], keepsGutenbergMatter: Bool = false,
        keepsFrontMatter: Bool = false
    ) {
        self.limits = limits
        self.include = include
        self.exclude = exclude
        self.keepsGutenbergMatter = keepsGutenbergMatter
        self.keepsFrontMatter = keepsFrontMatter
    }

    /// Reads the EPUB at `url`; `name` is how messages and item source paths call it.
    package func read(_ url: URL, name: String) throws(DocumentError) -> Book {
        try read(try Self.archive(url: url, data: nil, name: name), name: name)
    }

    /// Reads an EPUB held in memory (from standard input).
    package func read(_ data: Data, name: String) throws(DocumentError) -> Book {
        try read(try Self.archive(url: nil, data: data, name: name), name: name)
    }

    /// The language and title the book's package document declares (`dc:language`, `dc:title`),
    /// read without the content; nils if unreadable.
    package func declared(_ url: URL?, data: Data?, name: String) -> (
        language: String?, title: String?, author: String?
    ) {
        guard let archive = try? Self.archive(url: url, data: data, name: name),
            let opened = try? open(archive, name: name)
        else { return (nil, nil, nil) }
        return (
            opened.package.first("language")?.text.nilIfEmpty, opened.package.first("title")?.text.nilIfEmpty,
            opened.package.first("creator")?.text.nilIfEmpty
        )
    }

    /// Opens the zip held in `data`, or else the file at `url`.
    private static func archive(url: URL?, data: Data?, name: String) throws(DocumentError) -> Archive {
        do {
            if let data { return try archive(holding: data, name: name) }
            guard let url else { throw DocumentError.notAZip(file: name, reason: "no file or data to read") }
            // A FIFO or a device would block or never end; report it as the text reader does.
            try SourceReader.checkRegularFile(url)
            return try Archive(url: url, accessMode: .read)
        } catch let error as DocumentError {
            throw error
        } catch let error as TextError {
            throw .unreadableFile(error)
        } catch {
            throw .notAZip(file: name, reason: ErrorReason.trimmed("\(error)"))
        }
    }

    /// Opens a zip held in memory through an unlinked temporary file: ZIPFoundation's in-memory
    /// archive crashes on some malformed zips (a range past the end of its buffer, found by
    /// fuzzing), its file-backed one reports them. The file's name is removed at once; the open
    /// archive keeps it readable until it is released.
    private static func archive(holding data: Data, name: String) throws -> Archive {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("forge-epub-XXXXXX").path
        var path = Array(template.utf8CString)
        let descriptor = mkstemp(&path)
        guard descriptor >= 0 else {
            throw DocumentError.notAZip(
                file: name, reason: "no temporary file for it: \(String(cString: strerror(errno)))")
        }
        let url = URL(
            fileURLWithPath: String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        defer { unlink(url.path) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
        return try Archive(url: url, accessMode: .read)
    }

    /// The book's cover image — the manifest item with the `cover-image` property (EPUB 3) or the
    /// one a `<meta name="cover">` names (EPUB 2) — and its file extension; nil when it has none.
    package func coverImage(_ url: URL, name: String) -> (data: Data, fileExtension: String)? {
        guard let archive = try? Self.archive(url: url, data: nil, name: name),
            let opened = try? open(archive, name: name)
        else { return nil }
        var reader = opened.reader
        let (package, packagePath) = (opened.package, opened.packagePath)
        let items = package.all("item")
        let named = package.all("meta").first { $0.attributes["name"] == "cover" }?.attributes["content"]
        guard
            let item = items.first(where: {
                ($0.attributes["properties"] ?? "").split(separator: " ").contains("cover-image")
            })
                ?? items.first(where: { named != nil && $0.attributes["id"] == named }),
            let href = item.attributes["href"],
            let path = Self.resolve(href, in: (packagePath as NSString).deletingLastPathComponent)
        else { return nil }
        let type = item.attributes["media-type"] ?? ""
        let fileExtension = type == "image/png" ? "png" : type == "image/jpeg" ? "jpg" : nil
        guard let fileExtension, let data = try? reader.data(path, referencedBy: "the package's cover") else {
            return nil
        }
        return (data, fileExtension)
    }

    /// Every entry of the book, in archive order, checked and bounded as ``read(_:name:)`` does:
    /// for an export that writes the book back with additions.
    package func entries(_ url: URL, name: String) throws(DocumentError) -> (
        files: [(path: String, data: Data)], packagePath: String
    ) {
        var (reader, _, packagePath) = try open(try Self.archive(url: url, data: nil, name: name), name: name)
        var files: [(path: String, data: Data)] = []
        for path in reader.order {
            files.append((path, try reader.data(path, referencedBy: "the archive")))
        }
        return (files, packagePath)
    }

    /// Checks the archive and reads its package document.
    private func open(_ archive: Archive, name: String) throws(DocumentError) -> (
        reader: EntryReader, package: PackageXML, packagePath: String
    ) {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        for entry in archive {
            let path = entry.path
            guard let safe = Self.normalized(path) else { throw .unsafeEntryPath(file: name, entry: path) }
            entries[safe] = entry
            if entry.type == .file { order.append(safe) }
        }
        guard !entries.isEmpty else { throw .notAnEPUB(file: name, reason: "the archive is empty") }
        var reader = EntryReader(archive: archive, entries: entries, order: order, name: name, limits: limits)

        if entries["mimetype"] != nil {
            let mimetype = try reader.text("mimetype", referencedBy: "the archive").trimmingCharacters(
                in: .whitespacesAndNewlines)
            guard mimetype == "application/epub+zip" else {
                throw .notAnEPUB(
                    file: name, reason: "its mimetype file says \"\(mimetype.prefix(60))\", not application/epub+zip")
            }
        }
        guard entries["META-INF/container.xml"] != nil else {
            throw .notAnEPUB(file: name, reason: "it has no META-INF/container.xml, which every EPUB has")
        }
        // Fonts obfuscated (IDPF's or Adobe's scheme) are common and harmless; anything else encrypted is DRM.
        if entries["META-INF/encryption.xml"] != nil {
            let encryption = PackageXML(try reader.text("META-INF/encryption.xml", referencedBy: "the archive"))
            let fontSchemes: Set<String> = ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]
            // Each EncryptedData's method and cipher reference are the elements below it (a flat list with depths).
            var encrypted: [String] = []
            var current: (depth: Int, method: String, uri: String)?
            func close() {
                if let entry = current, !fontSchemes.contains(entry.method) { encrypted.append(entry.uri) }
                current = nil
            }
            for element in encryption.elements {
                let local = element.name.split(separator: ":").last.map(String.init) ?? element.name
                if let open = current, element.depth <= open.depth { close() }
                if local == "EncryptedData" {
                    current = (element.depth, "", "(unnamed)")
                } else if local == "EncryptionMethod" {
                    current?.method = element.attributes["algorithm"] ?? ""
                } else if local == "CipherReference" {
                    current?.uri = element.attributes["uri"] ?? "(unnamed)"
                }
            }
            close()
            if !encrypted.isEmpty { throw .encrypted(file: name, entries: encrypted) }
        }
        let container = PackageXML(try reader.text("META-INF/container.xml", referencedBy: "the archive"))
        guard
            let rootfile = container.all("rootfile").first(where: {
                ($0.attributes["full-path"] ?? "").isEmpty == false
            }),
            let packagePath = Self.normalized(rootfile.attributes["full-path"]!)
        else {
            throw .notAnEPUB(
                file: name, reason: "META-INF/container.xml names no package document (rootfile full-path)")
        }
        let package = PackageXML(try reader.text(packagePath, referencedBy: "META-INF/container.xml"))
        return (reader, package, packagePath)
    }

    /// The book's own contents: its navigation document's, or else its NCX's.
    private func contentsEntries(
        manifest: [String: (path: String, mediaType: String, properties: String)], package: PackageXML,
        reader: inout EntryReader
    ) throws(DocumentError) -> [ContentsEntry] {
        let entries = reader.entries
        var contents: [ContentsEntry] = []
        if let nav = manifest.values.first(where: { $0.properties.split(separator: " ").contains("nav") }),
            entries[nav.path] != nil
        {
            contents = Self.navigationEntries(
                PackageXML(try reader.text(nav.path, referencedBy: "the package's nav item")),
                folder: Self.folder(of: nav.path))
        }
        if contents.isEmpty {
            let ncxID = package.first("spine")?.attributes["toc"]
            if let ncx = ncxID.flatMap({ manifest[$0] })
                ?? manifest.values.first(where: { $0.mediaType == "application/x-dtbncx+xml" }),
                entries[ncx.path] != nil
            {
                contents = Self.ncxEntries(
                    PackageXML(try reader.text(ncx.path, referencedBy: "the package's NCX")),
                    folder: Self.folder(of: ncx.path))
            }
        }
        return contents
    }

    /// Gives each contents entry's title to the block it points at, as a part's (a book in
    /// parts: a top-level entry with chapters nested under it, beside other top-level entries;
    /// one alone is the book's own title; then every top-level entry is at the parts' level, a
    /// prologue or epilogue beside them, as in text, and the splitter makes a part that holds
    /// only itself a chapter again) or a chapter's. Whether any title was placed.
    private static func placeTitles(
        _ contents: [ContentsEntry], in documents: inout [StructuredDocument], name: String
    ) -> Bool {
        let nestedUnder = contents.indices.filter { index in
            contents[index].level == 1 && index + 1 < contents.count && contents[index + 1].level == 2
        }
        let inParts = !nestedUnder.isEmpty && contents.count(where: { $0.level == 1 }) >= 2
        var placed = false
        for entry in contents {
            guard let position = documents.firstIndex(where: { $0.path == "\(name)!/\(entry.path)" }) else { continue }
            let document = documents[position]
            guard !document.blocks.isEmpty else { continue }
            let block = entry.fragment.flatMap { document.blockIndexByID[$0] } ?? 0
            if inParts, entry.level == 1 {
                if documents[position].blocks[block].partTitle == nil,
                    documents[position].blocks[block].chapterTitle == nil
                {
                    documents[position].blocks[block].partTitle = entry.title
                    placed = true
                }
            } else if documents[position].blocks[block].chapterTitle == nil {
                documents[position].blocks[block].chapterTitle = entry.title
                placed = true
            }
        }
        return placed
    }

    private func read(_ archive: Archive, name: String) throws(DocumentError) -> Book {
        var (reader, package, packagePath) = try open(archive, name: name)
        let packageFolder = packagePath.split(separator: "/").dropLast().joined(separator: "/")

        var manifest: [String: (path: String, mediaType: String, properties: String)] = [:]
        for item in package.all("item") {
            guard let id = item.attributes["id"], let href = item.attributes["href"] else { continue }
            guard let path = Self.resolve(href, in: packageFolder) else {
                throw .unsafeEntryPath(file: name, entry: href)
            }
            manifest[id] = (path, item.attributes["media-type"] ?? "", item.attributes["properties"] ?? "")
        }
        var spine: [SpineItem] = []
        for reference in package.all("itemref") {
            guard let idref = reference.attributes["idref"] else { continue }
            guard let item = manifest[idref] else {
                throw .missingEntry(
                    file: name, entry: idref,
                    referencedBy:
                        "the spine (in \(packagePath)); the manifest has no item with that id, so the spine item")
            }
            spine.append(
                SpineItem(
                    idref: idref, path: item.path, mediaType: item.mediaType,
                    linear: reference.attributes["linear"] != "no"))
        }
        guard !spine.isEmpty else { throw .emptySpine(file: name) }

        let selected = try select(spine, name: name)
        let language = package.first("language")?.text.nilIfEmpty
        var documents: [StructuredDocument] = []
        for item in selected where Self.isContentDocument(item.mediaType) {
            let text = try reader.text(item.path, referencedBy: "the spine item \"\(item.idref)\"")
            let mode: HTMLReader.Mode = item.mediaType == "text/html" ? .html : .xhtml
            var document = try HTMLReader(
                mode: mode, keepsGutenbergMatter: keepsGutenbergMatter, keepsFrontMatter: keepsFrontMatter
            ).read(text, path: "\(name)!/\(item.path)")
            if document.language == nil { document.language = language }
            if !keepsFrontMatter { Self.dropShortDedication(&document, text: text) }
            documents.append(document)
        }

        var contents = try contentsEntries(manifest: manifest, package: package, reader: &reader)
        contents = Self.unwrapped(contents, documents: documents, name: name)
        let placed = Self.placeTitles(contents, in: &documents, name: name)
        return Book(
            title: package.first("title")?.text.nilIfEmpty, language: language, spine: spine, documents: documents,
            chaptersFromContents: placed)
    }

    /// A dedication of a line or two ("To My Dear Friend Hommy-Beg") is front matter, not a chapter;
    /// a longer one is the author speaking and stays.
    static func dropShortDedication(_ document: inout StructuredDocument, text: String) {
        guard text.contains("dedication"), text.count < 20_000,
            text.range(of: #"epub:type="[^"]*\bdedication\b"#, options: .regularExpression) != nil
        else { return }
        let words = document.blocks.reduce(0) { $0 + PlainTextReader.wordCount($1.text) }
        guard words > 0, words <= 25 else { return }
        document.unspoken.add("dedication", words: words)
        document.blocks = []
        document.blockIndexByID = [:]
    }

    /// The contents with wrappers taken off: an entry at the top that points at a page with nothing
    /// spoken (a half-title page, as Standard Ebooks nest the whole book under one) and holds entries
    /// of its own gives way to them, one level up; then only the two top levels are kept.
    static func unwrapped(_ contents: [ContentsEntry], documents: [StructuredDocument], name: String) -> [ContentsEntry]
    {
        var entries = contents
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            let children = entries[(index + 1)...].prefix { $0.level > entry.level }
            let target = documents.first { $0.path == "\(name)!/\(entry.path)" }
            let isEmpty = target.map { $0.blocks.isEmpty } ?? true
            if entry.level == 1, isEmpty, !children.isEmpty {
                for child in children.indices { entries[child].level -= 1 }
                entries.remove(at: index)
                continue
            }
            index += 1
        }
        // Books of parts of chapters (volumes holding parts): the parts carry their book's title.
        if entries.contains(where: { $0.level >= 3 }) {
            var book: String?
            var flattened: [ContentsEntry] = []
            for (index, entry) in entries.enumerated() {
                let holdsParts = entries[(index + 1)...].prefix { $0.level > entry.level }.contains { $0.level >= 3 }
                if entry.level == 1, holdsParts {
                    book = entry.title
                    continue
                }
                var entry = entry
                if let book, entry.level > 1 {
                    entry.level -= 1
                    if entry.level == 1 { entry.title = book + " — " + entry.title }
                } else if entry.level == 1 {
                    book = nil
                }
                flattened.append(entry)
            }
            entries = flattened
        }
        return entries.filter { $0.level <= 2 }
    }

    /// The spine items to read: linear ones and included ones, minus excluded ones.
    private func select(_ spine: [SpineItem], name: String) throws(DocumentError) -> [SpineItem] {
        func matches(_ item: SpineItem, _ wanted: String) -> Bool {
            wanted == item.idref || wanted == item.path || item.path.hasSuffix("/" + wanted)
        }
        for (field, names) in [("\"include\"", include), ("\"exclude\"", exclude)] {
            let unknown = names.filter { wanted in !spine.contains { matches($0, wanted) } }
            if !unknown.isEmpty {
                throw .unknownSpineItems(
                    file: name, field: field, names: unknown, spine: spine.map { "\($0.idref) (\($0.path))" })
            }
        }
        return spine.filter { item in
            (item.linear || include.contains { matches(item, $0) }) && !exclude.contains { matches(item, $0) }
        }
    }

    static func isContentDocument(_ mediaType: String) -> Bool {
        mediaType == "application/xhtml+xml" || mediaType == "text/html"
    }

    /// An entry of a book's table of contents: its title, where it points, and its level (1 at the
    /// top, 2 nested under an entry of level 1).
    struct ContentsEntry {
        var title: String
        var path: String
        var fragment: String?
        var level: Int
    }

    /// Entries of the EPUB 3 navigation document's `toc` nav, every level (``unwrapped(_:documents:name:)``
    /// keeps parts and chapters, not sections).
    static func navigationEntries(_ xml: PackageXML, folder: String) -> [ContentsEntry] {
        let elements = xml.elements
        guard
            let navIndex = elements.firstIndex(where: {
                $0.name == "nav" && ($0.attributes["epub:type"] ?? "").split(separator: " ").contains("toc")
            })
        else { return [] }
        let navDepth = elements[navIndex].depth
        var result: [ContentsEntry] = []
        // The level of an entry is how many `li` hold its link.
        var items: [Int] = []
        for element in elements[(navIndex + 1)...] {
            if element.depth <= navDepth { break }
            while let last = items.last, last >= element.depth { items.removeLast() }
            if element.name == "li" { items.append(element.depth) }
            guard element.name == "a", let href = element.attributes["href"], !element.text.isEmpty else { continue }
            let level = max(1, items.count)
            guard let target = target(href, folder: folder) else { continue }
            result.append(
                ContentsEntry(title: element.text, path: target.path, fragment: target.fragment, level: level))
        }
        return result
    }

    /// Entries of an EPUB 2 NCX's navMap, every level.
    static func ncxEntries(_ xml: PackageXML, folder: String) -> [ContentsEntry] {
        let elements = xml.elements
        var result: [ContentsEntry] = []
        var pointDepths: [Int] = []
        for (index, element) in elements.enumerated() where element.name == "navPoint" {
            while let last = pointDepths.last, last >= element.depth { pointDepths.removeLast() }
            pointDepths.append(element.depth)

            let children = elements[(index + 1)...].prefix { $0.depth > element.depth }.filter {
                $0.depth == element.depth + 1
            }
            guard let label = children.first(where: { $0.name == "navLabel" })?.text, !label.isEmpty,
                let source = children.first(where: { $0.name == "content" })?.attributes["src"],
                let target = target(source, folder: folder)
            else { continue }
            result.append(
                ContentsEntry(title: label, path: target.path, fragment: target.fragment, level: pointDepths.count))
        }
        return result
    }

    static func target(_ href: String, folder: String) -> (path: String, fragment: String?)? {
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = resolve(String(parts[0]), in: folder) else { return nil }
        return (path, parts.count > 1 ? String(parts[1]) : nil)
    }

    static func folder(of path: String) -> String {
        path.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// An href resolved against a folder inside the archive; nil if it leaves the archive.
    static func resolve(_ href: String, in folder: String) -> String? {
        let decoded = href.removingPercentEncoding ?? href
        if decoded.hasPrefix("/") { return nil }
        return normalized(folder.isEmpty ? decoded : folder + "/" + decoded)
    }

    /// A zip entry path with `.` and `..` resolved; nil for an absolute path or one that leaves the archive.
    static func normalized(_ path: String) -> String? {
        if path.hasPrefix("/") || path.hasPrefix("\\") || path.contains("\\") { return nil }
        if path.count >= 2, path.dropFirst().first == ":" { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    /// Reads entries within the limits, counting what the whole book has expanded to.
    private struct EntryReader {
        let archive: Archive
        let entries: [String: Entry]
        /// Entry paths in archive order.
        let order: [String]
        let name: String
        let limits: Limits
        var totalBytes = 0

        /// Thrown from inside the zip consumer to stop an expansion past the limit.
        struct LimitReached: Error {}

        mutating func text(_ path: String, referencedBy: String) throws(DocumentError) -> String {
            let data = try data(path, referencedBy: referencedBy)
            do {
                return try SourceReader.decode(data, file: "\(name)!/\(path)")
            } catch {
                throw .notAnEPUB(file: name, reason: error.localizedDescription)
            }
        }

        mutating func data(_ path: String, referencedBy: String) throws(DocumentError) -> Data {
            guard let entry = entries[path] else {
                throw .missingEntry(file: name, entry: path, referencedBy: referencedBy)
            }
            let declared = Int(clamping: entry.uncompressedSize)
            let limit = min(limits.entryBytes, limits.totalBytes - totalBytes)
            if declared > limit { throw .tooLarge(file: name, entry: path, limit: limit) }
            let compressed = max(Int(clamping: entry.compressedSize), 1)
            if declared > 1 << 20, declared / compressed > limits.compressionRatio {
                throw .suspiciousCompression(file: name, entry: path, ratio: declared / compressed)
            }
            var data = Data()
            do {
                // The declared size may lie: stop as soon as the expansion passes it or the limit.
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    data.append(chunk)
                    if data.count > limit || data.count > declared { throw LimitReached() }
                }
            } catch is LimitReached {
                if data.count > declared && declared < limit {
                    throw .sizeMismatch(file: name, entry: path, declared: declared)
                }
                throw .tooLarge(file: name, entry: path, limit: limit)
            } catch {
                throw .notAnEPUB(
                    file: name,
                    reason:
                        "the entry \"\(path)\" cannot be expanded (\(ErrorReason.trimmed(error.localizedDescription)))")
            }
            totalBytes += data.count
            return data
        }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
