import Foundation
import GRDB
import ZIPFoundation

/// `forge export <dir> --pack file.zip`: every item's audio and word timings under human names,
/// an `index.json` and a copy of the manifest, in one zip for an app or a CI artifact.
///
/// Items are named `chapter-NNN/NNNN` (chapter, then position in the chapter), and inline recipe
/// items `items/<id>` (`items/<id>.title` … for articles); the audio is the
/// item's own object, unchanged, and the timings are relative to it.
public struct AudioPack: Sendable {
    public let outputDirectory: URL
    public let settings: ExportSettings
    /// Checked between items: once set, the pack stops with ``ExportError/cancelled(written:)`` and no file is left.
    public let cancellation: CancellationFlag?

    public init(outputDirectory: URL, settings: ExportSettings, cancellation: CancellationFlag? = nil) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.settings = settings
        self.cancellation = cancellation
    }

    /// Writes the pack to `url` (replaced whole: written beside it, then renamed) and returns the number of items.
    @discardableResult
    public func write(to url: URL) throws -> Int {
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path) else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        let manifest = try Manifest(directory: outputDirectory, create: false)
        let lock = try OutputLock(directory: outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        let store = ObjectStore(root: outputDirectory)
        let timelines = try TimelineBuilder(store: store, manifest: manifest, settings: settings).timelines()

        try OwnedDirectory(root: outputDirectory).leftovers(remove: true)
        Self.removeLeftovers(besides: url)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let manifestCopy = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).sqlite")
        defer {
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: manifestCopy)
        }
        do {
            try? FileManager.default.removeItem(at: temporary)
            let archive = try Archive(url: temporary, accessMode: .create)
            var index = "{\"version\":1,\"title\":\(JSONText.quoted(settings.title)),\"language\":\(JSONText.quoted(settings.language))"
            index += ",\"tool\":\(JSONText.quoted("forge " + ForgeVersion.current)),\"items\":["
            var count = 0
            for timeline in timelines {
                for (position, item) in timeline.items.enumerated() {
                    if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                    // Inline recipe items go by their recipe id; book items by chapter and position.
                    let name = item.record.name.map { "items/\($0)" } ?? "\(timeline.fileStem)/\(CaptionCue.pad(position + 1, 4))"
                    let audioName = "audio/\(name).\(URL(fileURLWithPath: item.audioPath).pathExtension)"
                    let timingsName = "timings/\(name).json"
                    let audio: Data
                    do {
                        audio = try store.read(relativePath: item.audioPath)
                    } catch {
                        throw ExportError.missingAudio(itemID: item.record.id, path: item.audioPath)
                    }
                    try Self.add(audio, as: audioName, to: archive, compress: false)
                    try Self.add(Data((JSONTimingsExport.itemJSON(item, offsetMs: item.startMs) + "\n").utf8), as: timingsName, to: archive, compress: true)
                    if count > 0 { index += "," }
                    index += "\n{\"name\":\(JSONText.quoted(name)),\"id\":\(JSONText.quoted(item.record.id)),\"kind\":\(JSONText.quoted(item.record.kind))"
                    index += ",\"chapter\":\(timeline.chapter.ordinal),\"chapterTitle\":\(JSONText.quoted(timeline.chapter.title)),\"ordinal\":\(item.record.ordinal)"
                    index += ",\"text\":\(JSONText.quoted(item.record.text)),\"audio\":\(JSONText.quoted(audioName)),\"timings\":\(JSONText.quoted(timingsName))"
                    index += ",\"durationMs\":\(item.endMs - item.startMs),\"voice\":\(JSONText.quoted(item.record.voice ?? ""))"
                    if let character = item.record.character { index += ",\"character\":\(JSONText.quoted(character))" }
                    index += "}"
                    count += 1
                }
            }
            index += "\n]}\n"
            try Self.add(Data(index.utf8), as: "index.json", to: archive, compress: true)
            // A consistent copy of the manifest, made by SQLite itself.
            try manifest.database.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [manifestCopy.path])
            }
            try Self.add(try Data(contentsOf: manifestCopy), as: Manifest.fileName, to: archive, compress: true)
            if rename(temporary.path, url.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return count
        } catch let error as ExportError {
            throw error
        } catch let error as StoreError {
            throw error
        } catch {
            throw ExportError.writeFailed(path: url.path, reason: error.localizedDescription)
        }
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

    private static func add(_ data: Data, as path: String, to archive: Archive, compress: Bool) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compress ? .deflate : .none) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}
