import Foundation
import ZIPFoundation

/// An EPUB's zip written entry by entry into a file: `mimetype` first and stored, as the OCF
/// spec requires; audio stored (it is compressed already); everything else deflated. Audio is
/// encoded into a temporary file beside the book and copied into the zip from disk, so no
/// chapter's encoded audio, and never the archive, is held in memory.
final class EPUBArchive {
    private let archive: Archive
    private let url: URL

    /// Every entry's modification time (``ExportDate``).
    private let modified: Date

    /// Makes the new, empty file of Forge's at `url` a zip and writes its `mimetype`; every entry
    /// is dated `modified`.
    init(url: URL, modified: Date) throws {
        self.url = url
        self.modified = modified
        // An empty zip is its end record alone; opening it for update keeps the file Forge
        // created (without following links) instead of letting the library create one by name.
        let descriptor = open(url.path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
        let endRecord: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
        guard descriptor >= 0, write(descriptor, endRecord, endRecord.count) == endRecord.count, close(descriptor) == 0
        else {
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
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: modified,
            compressionMethod: compressed ? .deflate : .none
        ) {
            position, size in data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// Has `encode` write each of `paths`' audio files into the descriptor it is given (its
    /// index, a new file beside the book — its path, for an encoder that opens it itself — and a flag set when it must stop: it closes the file and
    /// checks the flag between blocks), on up to `jobs` threads at once, and stores the files in
    /// the zip in order, each followed by what `then` adds for it. Each file is removed once
    /// stored; at most twice `jobs` wait on disk.
    func addAudio(
        as paths: [String], jobs: Int, cancellation: CancellationFlag?, progress: ExportProgress.Sink? = nil,
        encode:
            @escaping @Sendable (
                _ index: Int, _ file: URL, _ descriptor: Int32, _ label: String, _ stop: CancellationFlag
            ) throws -> Void,
        then: (Int) throws -> Void = { _ in }
    ) throws {
        // `.<name>.<pid>.tmp`: a leftover of a killed export is recognised and removed by the next one.
        let folder = url.deletingLastPathComponent()
        let scratches = paths.map {
            folder.appendingPathComponent(".\(($0 as NSString).lastPathComponent).\(getpid()).tmp")
        }
        let labels = paths.map { "\(url.path)!/\($0)" }
        try EncodingQueue.run(
            count: paths.count, jobs: jobs, ahead: 2 * jobs, cancellation: cancellation, scratch: { scratches[$0] },
            encode: { index, descriptor, stop in try encode(index, scratches[index], descriptor, labels[index], stop) },
            take: { index in
                defer { progress?(ExportProgress(phase: "epub", done: index + 1, total: paths.count)) }
                try addStored(scratches[index], as: paths[index])
                try then(index)
            })
    }

    /// Stores `file` as it is (audio: compressed already), copied from disk a block at a time.
    func addStored(_ file: URL, as path: String) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(size), modificationDate: modified, compressionMethod: .none
        ) { position, chunk in
            try handle.seek(toOffset: UInt64(position))
            return try handle.read(upToCount: chunk) ?? Data()
        }
    }
}
