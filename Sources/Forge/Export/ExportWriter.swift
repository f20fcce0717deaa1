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
    private(set) var written: [String] = []

    init(outputDirectory: URL, folder: String, cancellation: CancellationFlag? = nil) {
        owned = OwnedDirectory(root: outputDirectory)
        self.folder = folder
        self.cancellation = cancellation
    }

    /// Throws ``ExportError/cancelled`` if a stop was asked for.
    func checkCancelled() throws(ExportError) {
        if cancellation?.isCancelled == true { throw .cancelled(written: written.count) }
    }

    mutating func write(_ bytes: [UInt8], to relativePath: String) throws(ExportError) {
        try checkCancelled()
        let target = folder + "/" + relativePath
        let url = owned.url(target)
        let parent = (target as NSString).deletingLastPathComponent
        let temporaryName = parent + "/.\(url.lastPathComponent).\(getpid()).tmp"
        let temporary = owned.url(temporaryName)
        do {
            try owned.makeDirectory(parent)
            unlink(temporary.path)
            let descriptor = try owned.createFile(temporaryName)
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            do {
                try handle.write(contentsOf: bytes)
                try handle.close()
            } catch {
                throw StoreError.writeFailed(path: url.path, reason: ErrorReason.text(error))
            }
            if rename(temporary.path, url.path) != 0 {
                throw StoreError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
            }
        } catch let error as StoreError {
            unlink(temporary.path)
            if case .linkInOutput(let path) = error { throw .linkInOutput(path: path) }
            if case .writeFailed(_, let reason) = error { throw .writeFailed(path: url.path, reason: reason) }
            throw .writeFailed(path: url.path, reason: error.errorDescription ?? "\(error)")
        } catch {
            unlink(temporary.path)
            throw .writeFailed(path: url.path, reason: ErrorReason.text(error))
        }
        written.append(target)
    }

    /// Has `produce` write the file at `relativePath` (an external encoder given a path): it gets a
    /// temporary path beside the target, created by Forge without following links, and the file is
    /// renamed into place only when it returns.
    mutating func produce(_ relativePath: String, _ produce: (URL) throws -> Void) throws {
        try checkCancelled()
        let target = folder + "/" + relativePath
        let url = owned.url(target)
        let parent = (target as NSString).deletingLastPathComponent
        let temporaryName = parent + "/.\(url.lastPathComponent).\(getpid()).tmp"
        let temporary = owned.url(temporaryName)
        try owned.makeDirectory(parent)
        unlink(temporary.path)
        close(try owned.createFile(temporaryName))
        do {
            try produce(temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
            }
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
