import Foundation

/// `forge export <dir> --pack file.zip`: every item's audio and word timings under human names,
/// an `index.json` and a copy of the manifest, in one zip for an app or a CI artifact.
///
/// Items are named `chapter-NNN/NNNN` (chapter, then position in the chapter), and inline recipe
/// items `items/<id>` (`items/<id>.title` … for articles); the audio is the
/// item's own object, unchanged, and the timings are relative to it.
package struct AudioPack: Sendable {
    package let outputDirectory: URL
    package let settings: ExportSettings
    /// Checked between items: once set, the pack stops with ``ExportError/cancelled(written:)`` and no file is left.
    package let cancellation: CancellationFlag?

    package init(outputDirectory: URL, settings: ExportSettings, cancellation: CancellationFlag? = nil) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.settings = settings
        self.cancellation = cancellation
    }

    /// Writes the pack to `url` (replaced whole: written beside it, then renamed) and returns the number of items.
    @discardableResult
    package func write(to url: URL) throws -> Int {
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path)
        else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        if let reason = WriteTarget.problem(url, outputDirectory: outputDirectory) {
            throw ExportError.unsafeTarget(path: url.path, reason: reason)
        }
        let manifest = try Manifest(directory: outputDirectory, create: false)
        let lock = try OutputLock(directory: outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        let store = ObjectStore(root: outputDirectory)
        let timelines = try TimelineBuilder(store: store, manifest: manifest, settings: settings).timelines()

        try OwnedDirectory(root: outputDirectory).leftovers(remove: true)
        Self.removeLeftovers(besides: url)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).tmp")
        let manifestCopy = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).sqlite")
        defer {
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: manifestCopy)
        }
        do {
            try? FileManager.default.removeItem(at: temporary)
            let archive = try ZipWriter(path: temporary.path, modified: ExportDate.resolve(manifest))
            // Timings and the index go to a nameless scratch file, read back when the archive is
            // written: memory stays flat however long the book.
            var scratch = try Self.scratchFile(besides: url)
            defer { scratch.close() }
            var index = PackIndexDocument(
                title: settings.title, language: settings.language, tool: "forge " + ForgeVersion.current, items: [])
            for timeline in timelines {
                for (position, item) in timeline.items.enumerated() {
                    if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                    index.items.append(
                        try add(item, at: position, of: timeline, to: archive, scratch: &scratch, store: store))
                }
            }
            try archive.add("index.json", from: try scratch.append(index.encodedLine()), compress: true)
            try manifest.copy(to: manifestCopy)
            let copySize = Int64(
                (try FileManager.default.attributesOfItem(atPath: manifestCopy.path)[.size] as? NSNumber)?.int64Value
                    ?? 0)
            try archive.add(Manifest.fileName, from: .file(at: manifestCopy.path, length: copySize), compress: true)
            try archive.close(cancellation: cancellation)
            try WriteTarget.replace(url, with: temporary)
            return index.items.count
        } catch let error as ExportError {
            throw error
        } catch let error as StoreError {
            throw error
        } catch {
            throw ExportError.writeFailed(path: url.path, reason: error.localizedDescription)
        }
    }

    /// One item in the pack: its audio stored as it is, its timings compressed; returns its entry
    /// in the index. Inline recipe items go by their recipe id; book items by chapter and position.
    private func add(
        _ item: TimedItem, at position: Int, of timeline: ChapterTimeline, to archive: ZipWriter,
        scratch: inout Scratch, store: ObjectStore
    ) throws -> PackIndexDocument.Item {
        let name = item.record.name.map { "items/\($0)" } ?? "\(timeline.fileStem)/\((position + 1).zeroPadded(to: 4))"
        let audioName = "audio/\(name).\(URL(fileURLWithPath: item.audioPath).pathExtension)"
        let timingsName = "timings/\(name).json"
        let size: Int64
        do {
            let descriptor = try store.owned.openForReading(item.audioPath)
            var status = stat()
            fstat(descriptor, &status)
            close(descriptor)
            size = Int64(status.st_size)
        } catch {
            throw ExportError.missingAudio(itemID: item.record.id, path: item.audioPath)
        }
        let owned = store.owned
        let audioPath = item.audioPath
        try archive.add(
            audioName, from: ZipWriter.Source(open: { try owned.openForReading(audioPath) }, length: size),
            compress: false)
        try archive.add(
            timingsName, from: try scratch.append(ItemTimingsDocument(item, offsetMs: item.startMs).encodedLine()),
            compress: true)
        return PackIndexDocument.Item(
            name: name, id: item.record.id, kind: item.record.kind, chapter: timeline.chapter.ordinal,
            chapterTitle: timeline.chapter.title, chapterPart: timeline.chapter.part, ordinal: item.record.ordinal,
            text: item.record.text, audio: audioName, timings: timingsName, durationMs: item.endMs - item.startMs,
            voice: item.record.voice ?? "", character: item.record.character)
    }

    /// Removes the temporary files of earlier packs to the same path whose forge was killed
    /// (`.<name>.<pid>.tmp` and `.sqlite`); links are removed, never followed.
    static func removeLeftovers(besides url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix(prefix) && OwnedDirectory.isLeftover(name) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// An open scratch file with no name, beside the pack (unlinked at once: nothing is left
    /// behind, even by a kill).
    static func scratchFile(besides url: URL) throws -> Scratch {
        let path = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).scratch.\(getpid()).tmp"
        ).path
        unlink(path)
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ExportError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        unlink(path)
        return Scratch(descriptor: descriptor, path: path)
    }

    /// Text appended to a scratch file, each piece then read back as an entry's bytes.
    struct Scratch {
        let descriptor: Int32
        let path: String
        private(set) var length: Int64 = 0

        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }

        /// Appends `text` and returns where it is, as an entry's source.
        mutating func append(_ bytes: [UInt8]) throws -> ZipWriter.Source {
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes {
                    pwrite(descriptor, $0.baseAddress! + written, bytes.count - written, off_t(length) + off_t(written))
                }
                guard result > 0 else {
                    throw ExportError.writeFailed(path: path, reason: String(cString: strerror(errno)))
                }
                written += result
            }
            let shared = descriptor
            defer { length += Int64(bytes.count) }
            return ZipWriter.Source(open: { shared }, offset: length, length: Int64(bytes.count), closes: false)
        }

        func close() { Foundation.close(descriptor) }
    }
}
