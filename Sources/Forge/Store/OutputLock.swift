import Foundation

/// An exclusive lock on an output directory, so one forge at a time writes into it.
///
/// It is an `flock` on the output directory itself (its descriptor), which the kernel releases
/// when the holder exits for any reason, so a lock left by a killed process never blocks the
/// next build; and since the lock is on the folder, deleting or replacing a file cannot bypass
/// it. `<output>/.forge.lock` only records the holder's pid and command line for the message; it
/// is opened without following links.
package final class OutputLock: Sendable {
    package let url: URL
    private let directoryDescriptor: Int32
    private let noteDescriptor: Int32

    package init(directory: URL) throws(StoreError) {
        url = directory.appendingPathComponent(".forge.lock")
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw errno == EACCES
                ? .notWritable(path: directory.path)
                : .writeFailed(path: directory.path, reason: String(cString: strerror(errno)))
        }
        guard flock(folder, LOCK_EX | LOCK_NB) == 0 else {
            close(folder)
            throw .busy(path: directory.path, holder: Self.holder(of: url) ?? "a process that is starting")
        }
        let note = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard note >= 0 else {
            let reason = errno
            flock(folder, LOCK_UN)
            close(folder)
            if reason == ELOOP { throw .linkInOutput(path: url.path) }
            throw reason == EACCES || reason == EROFS
                ? .notWritable(path: directory.path)
                : .writeFailed(path: url.path, reason: String(cString: strerror(reason)))
        }
        directoryDescriptor = folder
        noteDescriptor = note
        let text = "pid \(getpid()): \(CommandLine.arguments.joined(separator: " "))\n"
        ftruncate(note, 0)
        _ = text.withCString { pwrite(note, $0, strlen($0), 0) }
    }

    /// A path that reaches the locked directory wherever it is moved while the lock is held (the
    /// lock's descriptor, through /proc): writes through it can never land in a directory that
    /// took the old name. Valid for this process and its children while the lock lives.
    package var pinnedPath: String { "/proc/\(getpid())/fd/\(directoryDescriptor)" }

    /// Whether `directory` still names the locked directory (not renamed away, not replaced).
    package func isStill(at directory: URL) -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(directoryDescriptor, &held) == 0, stat(directory.path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// What the holder wrote in the lock's note, read without following a link.
    static func holder(of url: URL) -> String? {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    deinit {
        ftruncate(noteDescriptor, 0)
        close(noteDescriptor)
        flock(directoryDescriptor, LOCK_UN)
        close(directoryDescriptor)
    }
}
