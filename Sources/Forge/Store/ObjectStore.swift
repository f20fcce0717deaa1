import Foundation

/// The content-addressed object store under an output directory.
///
/// Objects live at `objects/<first 2 hex of key>/<rest of key>.<ext>`. Each is written to a
/// temporary file in `objects/tmp/`, fsynced, then hard-linked into place (a link, unlike a
/// rename, never replaces an existing object) and the directory fsynced; after that it never changes.
/// The folders are reached through descriptors opened once (``StoreFolders``), never through a link;
/// large objects are written past the page cache (``DirectWriteBuffer``).
package struct ObjectStore: Sendable {
    package let root: URL
    /// The folders objects are written into, opened once.
    private let folders: StoreFolders
    /// Large objects are written through it, past the page cache.
    private let directWrites: DirectWriteBuffer

    package init(root: URL) {
        self.root = root
        folders = StoreFolders(rootPath: root.path)
        directWrites = DirectWriteBuffer()
    }

    package var objectsDirectory: URL { root.appendingPathComponent("objects", isDirectory: true) }
    package var temporaryDirectory: URL { objectsDirectory.appendingPathComponent("tmp", isDirectory: true) }

    package static func relativePath(key: String, fileExtension: String) -> String {
        "objects/\(key.prefix(2))/\(key.dropFirst(2)).\(fileExtension)"
    }

    package func url(forRelativePath path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// Whether an object file exists at its place, as a regular file reached without a link (a
    /// link at it or at its folder does not count).
    package func contains(relativePath path: String) -> Bool {
        (try? owned.check(path, lastIsFile: true)) != nil
            && OwnedDirectory.entry(at: url(forRelativePath: path).path) == .file
    }

    /// Whether a large object has been copied into the direct-write buffer on its way to disk.
    var copiedThroughDirectWriteBuffer: Bool { directWrites.isAllocated }

    /// The output directory, reached without following links.
    var owned: OwnedDirectory { OwnedDirectory(root: root) }

    /// Creates the store's directories (refusing a link planted at `objects` or `objects/tmp`).
    package func prepare() throws(StoreError) {
        try owned.makeDirectory("objects/tmp")
    }

    /// Stores `data` as the object `key`: written to a temporary file, fsynced, then linked into
    /// place (the link itself is not fsynced: see below). If the object already exists, it is kept and the new bytes discarded (same key, same inputs).
    /// `sha256`: the bytes' digest when the caller has just checked it (a download), not computed again.
    package func store<Bytes: ContiguousBytes & DataProtocol>(
        key: String, fileExtension: String, role: StoredObject.Role, mimeType: String, data: Bytes,
        durationMs: Int? = nil, sampleRate: Int? = nil, frames: Int? = nil, sha256: String? = nil
    ) throws(StoreError) -> StoredObject {
        let shard = String(key.prefix(2))
        let relative = Self.relativePath(key: key, fileExtension: fileExtension)
        let name = (relative as NSString).lastPathComponent
        let temporaryName = "\(key).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let temporaryFolder = try folders.descriptor("objects/tmp")
        // A shard folder that is a link is refused, never linked into.
        let shardFolder = try folders.descriptor("objects/\(shard)")
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let direct = data.count >= DirectWriteBuffer.threshold && DirectWriteBuffer.openFlag != 0
        var descriptor = openat(
            temporaryFolder, temporaryName, flags | (direct ? DirectWriteBuffer.openFlag : 0), 0o644)
        // A file system without direct I/O refuses the flag: the object goes through the page cache.
        if descriptor < 0 && direct && errno == EINVAL {
            descriptor = openat(temporaryFolder, temporaryName, flags, 0o644)
        }
        guard descriptor >= 0 else {
            throw .writeFailed(path: path("objects/tmp/\(temporaryName)"), reason: String(cString: strerror(errno)))
        }
        defer { unlinkat(temporaryFolder, temporaryName, 0) }
        let failure: String? = data.withUnsafeBytes { buffer in
            if let failure = directWrites.write(buffer, to: descriptor) { return failure }
            return fsync(descriptor) == 0 ? nil : "fsync: \(String(cString: strerror(errno)))"
        }
        close(descriptor)
        if let failure { throw .writeFailed(path: path("objects/tmp/\(temporaryName)"), reason: failure) }
        var linked = linkat(temporaryFolder, temporaryName, shardFolder, name, 0) == 0
        if !linked && errno == EEXIST && OwnedDirectory.entry(name, in: shardFolder) != .file {
            // Something other than a regular file (a planted symlink) sits where the object belongs:
            // it is never followed, only replaced.
            if unlinkat(shardFolder, name, 0) == 0 {
                linked = linkat(temporaryFolder, temporaryName, shardFolder, name, 0) == 0
            }
        }
        if !linked {
            guard errno == EEXIST else {
                throw .writeFailed(path: path(relative), reason: String(cString: strerror(errno)))
            }
            do {
                var existing = try describe(
                    key: key, relativePath: relative, role: role, mimeType: mimeType, durationMs: durationMs,
                    sampleRate: sampleRate)
                existing.frames = frames
                return existing
            } catch {
                throw .writeFailed(path: path(relative), reason: error.localizedDescription)
            }
        }
        // The link is not fsynced: a crash can lose it, never leave it naming unwritten bytes (the
        // file was fsynced before it was linked), and an object found missing is made again — every
        // build checks that each item's objects are there. Syncing each shard folder too doubled
        // the fsyncs of a build (4,486 for the 121k-word corpus) for nothing a crash could harm.
        return StoredObject(
            key: key, path: relative, role: role, bytes: data.count, sha256: sha256 ?? ContentHash.sha256Hex(data),
            mimeType: mimeType,
            durationMs: durationMs, sampleRate: sampleRate, frames: frames)
    }

    /// The absolute path of `relative`, for messages.
    private func path(_ relative: String) -> String {
        url(forRelativePath: relative).path
    }

    /// Reads an existing object's size and hash from disk.
    package func describe(
        key: String, relativePath: String, role: StoredObject.Role, mimeType: String, durationMs: Int?, sampleRate: Int?
    ) throws -> StoredObject {
        let url = url(forRelativePath: relativePath)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return StoredObject(
            key: key, path: relativePath, role: role, bytes: (attributes[.size] as? Int) ?? 0,
            sha256: try ContentHash.sha256Hex(fileAt: url), mimeType: mimeType, durationMs: durationMs,
            sampleRate: sampleRate)
    }

    /// An object's bytes, read without following a link at it or above it.
    package func read(relativePath: String) throws(StoreError) -> Data {
        try owned.read(relativePath)
    }

    /// Decodes an audio object, opened without following links.
    package func decodeAudio(relativePath: String) throws -> DecodedAudio {
        try SoundFile.decode(
            descriptor: owned.openForReading(relativePath), label: url(forRelativePath: relativePath).path)
    }

    /// An audio object's frame count and sample rate, from its header.
    package func audioHeader(relativePath: String) throws -> (frames: Int, sampleRate: Int) {
        try SoundFile.frameCount(
            descriptor: owned.openForReading(relativePath), label: url(forRelativePath: relativePath).path)
    }
}
