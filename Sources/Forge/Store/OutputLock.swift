import Foundation

/// An exclusive lock on an output directory, so one forge at a time writes into it.
///
/// It is an `flock` on `<output>/.forge.lock`, which the kernel releases when the holder exits
/// for any reason, so a lock left by a killed process never blocks the next build. The file
/// records the holder's pid and command line for the error message.
public final class OutputLock: Sendable {
    public let url: URL
    private let descriptor: Int32

    public init(directory: URL) throws(StoreError) {
        url = directory.appendingPathComponent(".forge.lock")
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw errno == EACCES || errno == EROFS
                ? .notWritable(path: directory.path)
                : .writeFailed(path: url.path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw .busy(path: directory.path, holder: holder.flatMap { $0.isEmpty ? nil : $0 } ?? "a process that is starting")
        }
        self.descriptor = descriptor
        let note = "pid \(getpid()): \(CommandLine.arguments.joined(separator: " "))\n"
        ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
