import Foundation

/// The file libsndfile encodes into, in memory: one page-aligned allocation that becomes the
/// encoded `Data` without a copy, so the store can write it to disk directly (`O_DIRECT` needs
/// aligned memory) and hash it, instead of copying a book's audio once more.
///
/// Used by one encode on one thread, then given up (``takeBytes()``); libsndfile reaches it
/// through ``SoundFile``'s virtual I/O.
final class EncodingFile {
    private static let alignment = 4096
    private var storage: UnsafeMutableRawPointer?
    private var capacity: Int
    private var length = 0
    private var position = 0

    /// `capacity`: the bytes expected, so the buffer is not moved as it fills.
    init(capacity: Int) {
        self.capacity = 0
        reserve(max(capacity, Self.alignment))
    }

    deinit {
        free(storage)
    }

    /// The bytes written, handed over to a `Data` that frees them.
    func takeBytes() -> Data {
        guard let storage, length > 0 else { return Data() }
        self.storage = nil
        return Data(bytesNoCopy: storage, count: length, deallocator: .free)
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> EncodingFile {
        Unmanaged<EncodingFile>.fromOpaque(user!).takeUnretainedValue()
    }

    var size: Int64 { Int64(length) }
    var offset: Int64 { Int64(position) }

    /// Grows the buffer to at least `needed` bytes (a bigger aligned one, the bytes copied over).
    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let size = max(needed, capacity * 2)
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Self.alignment, size) == 0, let memory else {
            fatalError("out of memory encoding \(size) bytes of audio")
        }
        if let storage {
            memory.copyMemory(from: storage, byteCount: length)
            free(storage)
        }
        storage = memory
        capacity = size
    }

    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = length
        default: base = 0
        }
        position = max(0, base + Int(offset))
        return Int64(position)
    }

    func read(into pointer: UnsafeMutableRawPointer?, count: Int64) -> Int64 {
        guard let pointer, let storage, position < length else { return 0 }
        let available = min(Int(count), length - position)
        pointer.copyMemory(from: storage + position, byteCount: available)
        position += available
        return Int64(available)
    }

    func write(_ pointer: UnsafeRawPointer?, count: Int64) -> Int64 {
        guard let pointer, count > 0 else { return 0 }
        let count = Int(count)
        reserve(position + count)
        guard let storage else { return 0 }
        // A write past the end (after a seek there) leaves zeros between, as a file would.
        if position > length {
            (storage + length).initializeMemory(as: UInt8.self, repeating: 0, count: position - length)
        }
        (storage + position).copyMemory(from: pointer, byteCount: count)
        position += count
        length = max(length, position)
        return Int64(count)
    }
}
