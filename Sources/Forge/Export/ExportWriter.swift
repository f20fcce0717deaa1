import Foundation

/// Writes derived files under a folder of the output directory (`exports/`, `verify/`)
/// atomically — a temporary `.<name>.<pid>.tmp` beside the target, then a rename — and
/// remembers what it wrote. Folders are created and checked without following links (a link
/// planted at `exports/` or below is refused, never written through); a rename replaces a link at
/// the target itself rather than following it. Stops with ``ExportError/cancelled`` before the
/// next file once `cancellation` is set.
struct ExportWriter {
    let owned: OwnedDirectory
    /// The folder written into, relative to the output directory.
    let folder: String
    let cancellation: CancellationFlag?
    /// Where the export's progress goes (nil: nowhere).
    var progress: ExportProgress.Sink?
    private(set) var written: [String] = []

    init(outputDirectory: URL, folder: String, cancellation: CancellationFlag? = nil) {
        owned = OwnedDirectory(root: outputDirectory)
        self.folder = folder
        self.cancellation = cancellation
    }

    /// Counts as written the files another writer wrote into the same folder (the M4B's thread).
    mutating func adopt(_ paths: [String]) {
        written += paths
    }

    /// Throws ``ExportError/cancelled`` if a stop was asked for.
    func checkCancelled() throws(ExportError) {
        if cancellation?.isCancelled == true { throw .cancelled(written: written.count) }
    }

    mutating func write(_ bytes: [UInt8], to relativePath: String) throws(ExportError) {
        do {
            try place(relativePath) { descriptor, temporary in
                let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                do {
                    try handle.write(contentsOf: bytes)
                    try handle.close()
                } catch {
                    throw ExportError.writeFailed(path: temporary.path, reason: ErrorReason.text(error))
                }
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw .writeFailed(path: owned.url(folder + "/" + relativePath).path, reason: ErrorReason.text(error))
        }
    }

    /// Has `fill` write the file at `relativePath` through the descriptor of a new temporary file
    /// beside it (`fill` owns the descriptor and closes it); renamed into place when `fill` returns.
    /// Its errors pass through unchanged.
    mutating func stream(_ relativePath: String, _ fill: (Int32) throws -> Void) throws {
        try place(relativePath) { descriptor, _ in try fill(descriptor) }
    }

    /// Writes a copy of `source` (a file Forge made, e.g. one taken from the remote cache) at
    /// `relativePath`, a megabyte at a time: an ACX part of two hours is 160 MB, never read whole.
    mutating func copy(_ source: URL, to relativePath: String) throws {
        let cancellation = cancellation
        try place(relativePath) { descriptor, temporary in
            let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            do {
                let input = try FileHandle(forReadingFrom: source)
                defer { try? input.close() }
                while let block = try input.read(upToCount: 1 << 20), !block.isEmpty {
                    if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                    try output.write(contentsOf: block)
                }
                try output.close()
            } catch let error as ExportError {
                throw error
            } catch {
                throw ExportError.writeFailed(path: temporary.path, reason: ErrorReason.text(error))
            }
        }
    }

    /// The path a file written at `relativePath` ends up at, for messages.
    func finalPath(_ relativePath: String) -> String { owned.url(folder + "/" + relativePath).path }

    /// Has `produce` write the file at `relativePath` (an external encoder given a path): it gets a
    /// temporary path beside the target, created by Forge without following links, and the file is
    /// renamed into place only when it returns. Its errors pass through unchanged.
    mutating func produce(_ relativePath: String, _ produce: (URL) throws -> Void) throws {
        try place(relativePath) { descriptor, temporary in
            close(descriptor)
            try produce(temporary)
        }
    }

    /// The one way a file gets into place: a new temporary file beside the target (its folder
    /// created without following links), filled, then renamed over the target; removed on failure.
    private mutating func place(_ relativePath: String, _ fill: (Int32, URL) throws -> Void) throws {
        try checkCancelled()
        let target = folder + "/" + relativePath
        let url = owned.url(target)
        let parent = (target as NSString).deletingLastPathComponent
        let temporaryName = parent + "/.\(url.lastPathComponent).\(getpid()).tmp"
        let temporary = owned.url(temporaryName)
        do {
            try owned.makeDirectory(parent)
            unlink(temporary.path)
            try fill(try owned.createFile(temporaryName), temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
            }
        } catch let error as StoreError {
            unlink(temporary.path)
            if case .linkInOutput(let path) = error { throw ExportError.linkInOutput(path: path) }
            if case .writeFailed(_, let reason) = error {
                throw ExportError.writeFailed(path: url.path, reason: reason)
            }
            throw ExportError.writeFailed(path: url.path, reason: error.errorDescription ?? "\(error)")
        } catch ExportError.cancelled {
            unlink(temporary.path)
            // Raised deep in an encoder, which cannot know how many files came before it.
            throw ExportError.cancelled(written: written.count)
        } catch {
            unlink(temporary.path)
            throw error
        }
        written.append(target)
    }

    /// Writes a small file Forge hands to an encoder (ffmpeg's chapter list), beside the target;
    /// the caller removes it.
    func scratchFile(_ name: String, _ text: String) throws -> URL {
        try scratchFile(name, data: Data(text.utf8))
    }

    /// Where ``scratchFile(_:data:)`` puts `name`, made ready to be created there (its folder
    /// made, an old file of that name removed).
    func scratchURL(_ name: String) throws -> URL {
        let relative = folder + "/.\(name).\(getpid()).tmp"
        try owned.makeDirectory(folder)
        unlink(owned.url(relative).path)
        return owned.url(relative)
    }

    func scratchFile(_ name: String, data: Data) throws -> URL {
        let relative = folder + "/.\(name).\(getpid()).tmp"
        try owned.makeDirectory(folder)
        unlink(owned.url(relative).path)
        let handle = FileHandle(fileDescriptor: try owned.createFile(relative), closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
        return owned.url(relative)
    }
}
