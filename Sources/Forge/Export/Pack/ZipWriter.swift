import CLibZip
import Foundation

/// A zip archive written with libzip in one pass: entries are registered as they come (a few
/// hundred bytes each) and their data is read and written when the archive is closed, so the
/// time is linear in the entries and the memory does not grow with their data.
///
/// (ZIPFoundation, which reads EPUBs and writes the small EPUB archives, rewrites the whole
/// central directory on every entry it adds: quadratic for a pack of 20,000 entries.)
///
/// Entry data is read through descriptors the caller opens (``Source``), so a file is opened
/// only the way its owner allows (links refused in the output directory), and only while it is
/// being copied. Used by one thread.
final class ZipWriter {
    /// Where an entry's bytes come from: `length` bytes at `offset` of the descriptor `open` gives
    /// (closed after the copy when `closes`).
    struct Source {
        var open: () throws -> Int32
        var offset: Int64 = 0
        var length: Int64
        var closes = true

        /// A file of Forge's own outside the output directory (opened without following a link).
        static func file(at path: String, length: Int64) -> Source {
            Source(
                open: {
                    let descriptor = Foundation.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                    guard descriptor >= 0 else {
                        throw ExportError.writeFailed(path: path, reason: String(cString: strerror(errno)))
                    }
                    return descriptor
                }, length: length)
        }
    }

    private let archive: OpaquePointer
    private let path: String
    private let state: State
    private var closed = false

    /// What the C callbacks share with the writer: the entries' modification time and the first
    /// error an entry's source met, in words for people.
    private final class State {
        let modified: time_t
        init(modified: time_t) { self.modified = modified }
        var failure: String?
    }

    /// One entry's source while libzip reads it.
    private final class Entry {
        let source: Source
        let state: State
        let name: String
        var descriptor: Int32 = -1
        var position: Int64 = 0
        var error = zip_error_t()

        init(source: Source, state: State, name: String) {
            self.source = source
            self.state = state
            self.name = name
            zip_error_init(&error)
        }
    }

    /// Creates (or truncates) the archive at `path`.
    /// A new zip at `path` whose entries are all dated `modified` (``ExportDate``).
    init(path: String, modified: Date) throws(ExportError) {
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            defer { zip_error_fini(&error) }
            throw .writeFailed(path: path, reason: String(cString: zip_error_strerror(&error)))
        }
        self.archive = archive
        self.path = path
        state = State(modified: time_t(modified.timeIntervalSince1970))
    }

    deinit {
        if !closed { zip_discard(archive) }
    }

    /// Registers the entry `name` with the bytes of `source`, deflated when `compress`.
    func add(_ name: String, from source: Source, compress: Bool) throws(ExportError) {
        let entry = Unmanaged.passRetained(Entry(source: source, state: state, name: name)).toOpaque()
        guard let zipSource = zip_source_function(archive, Self.callback, entry) else {
            Unmanaged<Entry>.fromOpaque(entry).release()
            throw .writeFailed(path: path, reason: String(cString: zip_strerror(archive)))
        }
        let index = zip_file_add(archive, name, zipSource, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)
        guard index >= 0 else {
            zip_source_free(zipSource)
            throw .writeFailed(path: path, reason: "\(name): \(String(cString: zip_strerror(archive)))")
        }
        zip_set_file_compression(archive, zip_uint64_t(index), compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0)
    }

    /// Writes the archive: every entry's data is copied now. Once `cancellation` is set the
    /// write stops and no archive is left (``ExportError/cancelled(written:)``).
    func close(cancellation: CancellationFlag?) throws(ExportError) {
        if let cancellation {
            let flag = Unmanaged.passRetained(cancellation).toOpaque()
            zip_register_cancel_callback_with_state(
                archive,
                { _, flag in Unmanaged<CancellationFlag>.fromOpaque(flag!).takeUnretainedValue().isCancelled ? 1 : 0 },
                { flag in Unmanaged<CancellationFlag>.fromOpaque(flag!).release() }, flag)
        }
        guard zip_close(archive) == 0 else {
            let error = zip_get_error(archive)!
            let reason = state.failure ?? String(cString: zip_error_strerror(error))
            let cancelled = zip_error_code_zip(error) == ZIP_ER_CANCELLED
            zip_discard(archive)
            closed = true
            if cancelled { throw .cancelled(written: 0) }
            throw .writeFailed(path: path, reason: reason)
        }
        closed = true
    }

    /// The source callback: opens, reads, closes and describes one entry's bytes for libzip.
    private static let callback: zip_source_callback = { pointer, data, length, command in
        let entry = Unmanaged<Entry>.fromOpaque(pointer!).takeUnretainedValue()
        switch command {
        case ZIP_SOURCE_OPEN:
            do {
                entry.descriptor = try entry.source.open()
            } catch {
                if entry.state.failure == nil { entry.state.failure = "\(entry.name): \(error.localizedDescription)" }
                zip_error_set(&entry.error, ZIP_ER_OPEN, 0)
                return -1
            }
            entry.position = 0
            return 0
        case ZIP_SOURCE_READ:
            let wanted = min(Int64(length), entry.source.length - entry.position)
            guard wanted > 0 else { return 0 }
            let read = pread(entry.descriptor, data, Int(wanted), off_t(entry.source.offset + entry.position))
            guard read >= 0 else {
                if entry.state.failure == nil {
                    entry.state.failure = "\(entry.name): \(String(cString: strerror(errno)))"
                }
                zip_error_set(&entry.error, ZIP_ER_READ, errno)
                return -1
            }
            entry.position += Int64(read)
            return zip_int64_t(read)
        case ZIP_SOURCE_CLOSE:
            if entry.source.closes && entry.descriptor >= 0 { Foundation.close(entry.descriptor) }
            entry.descriptor = -1
            return 0
        case ZIP_SOURCE_STAT:
            let stat = data!.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(stat)
            stat.pointee.size = zip_uint64_t(entry.source.length)
            stat.pointee.mtime = entry.state.modified
            stat.pointee.valid |= zip_uint64_t(ZIP_STAT_SIZE) | zip_uint64_t(ZIP_STAT_MTIME)
            return zip_int64_t(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_ERROR:
            return zip_error_to_data(&entry.error, data, length)
        case ZIP_SOURCE_FREE:
            if entry.source.closes && entry.descriptor >= 0 { Foundation.close(entry.descriptor) }
            zip_error_fini(&entry.error)
            Unmanaged<Entry>.fromOpaque(pointer!).release()
            return 0
        case ZIP_SOURCE_SUPPORTS:
            let commands = [
                ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
                ZIP_SOURCE_SUPPORTS,
            ]
            return commands.reduce(0) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }
        default:
            zip_error_set(&entry.error, ZIP_ER_OPNOTSUPP, 0)
            return -1
        }
    }
}
