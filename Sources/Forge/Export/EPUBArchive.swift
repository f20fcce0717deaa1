import Foundation
import ZIPFoundation

/// An EPUB's zip written entry by entry into a file: `mimetype` first and stored, as the OCF
/// spec requires; audio stored (it is compressed already); everything else deflated. Audio is
/// encoded into a temporary file beside the book and copied into the zip from disk, so no
/// chapter's encoded audio, and never the archive, is held in memory.
final class EPUBArchive {
    private let archive: Archive
    private let url: URL

    /// Makes the new, empty file of Forge's at `url` a zip and writes its `mimetype`.
    init(url: URL) throws {
        self.url = url
        // An empty zip is its end record alone; opening it for update keeps the file Forge
        // created (without following links) instead of letting the library create one by name.
        let descriptor = open(url.path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
        let endRecord: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
        guard descriptor >= 0, write(descriptor, endRecord, endRecord.count) == endRecord.count, close(descriptor) == 0 else {
            throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
        }
        do {
            archive = try Archive(url: url, accessMode: .update)
        } catch {
            throw ExportError.writeFailed(path: url.path, reason: ErrorReason.text(error))
        }
        try add(Array("application/epub+zip".utf8), as: "mimetype", compressed: false)
    }

    func add(_ bytes: [UInt8], as path: String, compressed: Bool = true) throws {
        let data = Data(bytes)
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compressed ? .deflate : .none) {
            position, size in data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// Has `encode` write an audio file into the descriptor it is given (and close it; the label
    /// names the entry in messages), then stores that file in the zip as `path` and removes it.
    func addAudio(as path: String, _ encode: (Int32, String) throws -> Void) throws {
        // `.<name>.<pid>.tmp`: a leftover of a killed export is recognised and removed by the next one.
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).tmp")
        unlink(scratch.path)
        let descriptor = open(scratch.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ExportError.writeFailed(path: scratch.path, reason: String(cString: strerror(errno))) }
        defer { unlink(scratch.path) }
        try encode(descriptor, "\(url.path)!/\(path)")
        let handle = try FileHandle(forReadingFrom: scratch)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(size), compressionMethod: .none) { position, chunk in
            try handle.seek(toOffset: UInt64(position))
            return try handle.read(upToCount: chunk) ?? Data()
        }
    }
}
