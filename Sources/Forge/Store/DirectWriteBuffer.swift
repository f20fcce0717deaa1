import Foundation
import Synchronization

/// A page-aligned buffer through which large objects are written with `O_DIRECT`, bypassing the
/// page cache.
///
/// A buffered write copies every byte into a newly allocated page-cache page (and, when memory is
/// full of earlier outputs, reclaims one first), a cost that varies with the page cache's state.
/// Written directly, the bytes go
/// from this buffer to the device; the object is fsynced either way. One buffer per store, reused
/// (a fresh allocation per object would fault in its pages each time); a second writer at the same
/// moment writes through the page cache instead of waiting.
final class DirectWriteBuffer: Sendable {
    /// Direct I/O needs the buffer, the file offset and the length aligned to the device's logical
    /// block size; a page satisfies every block size in use.
    static let alignment = 4096
    static let capacity = 1 << 20
    /// Smaller objects are written through the page cache: their copy costs little.
    static let threshold = 256 * 1024
    /// `O_DIRECT`, which Glibc's Swift overlay leaves out (it is behind `_GNU_SOURCE`); its value
    /// differs between architectures (asm-generic and x86 `fcntl.h`). 0 elsewhere: no direct I/O.
    static let openFlag: Int32 = {
        #if os(Linux) && arch(x86_64)
            return 0o40000
        #elseif os(Linux) && arch(arm64)
            return 0o200000
        #else
            return 0
        #endif
    }()

    // The buffer's address, allocated at the first large write (0 until then) and freed with this
    // object, and whether a writer has it.
    private let state = Mutex<(address: UInt, busy: Bool)>((0, false))

    init() {}

    /// Whether a write has needed the buffer (one from page-aligned memory does not).
    var isAllocated: Bool { state.withLock { $0.address != 0 } }

    deinit {
        state.withLock { free(UnsafeMutableRawPointer(bitPattern: $0.address)) }
    }

    /// Writes `bytes` to `descriptor`, a new, empty file: when it was opened with `O_DIRECT`, whole
    /// pages straight from `bytes` if they are page-aligned (encoded audio is), else through this
    /// buffer, and the last partial page through the page cache. Nil on success,
    /// else why it failed. Where the file system refuses direct I/O (`EINVAL`), or the buffer is in
    /// use, the rest is written through the page cache.
    func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
        var offset = 0
        let flags = fcntl(descriptor, F_GETFL)
        let direct = Self.openFlag != 0 && flags >= 0 && flags & Self.openFlag != 0
        if direct, UInt(bitPattern: bytes.baseAddress) % UInt(Self.alignment) == 0 {
            // Aligned already (an encoded audio object): its whole pages go to the file as they are.
            let whole = bytes.count - bytes.count % Self.alignment
            while offset < whole {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, whole - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EINVAL { break }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
        } else if direct, let buffer = acquire() {
            defer { state.withLock { $0.busy = false } }
            let whole = bytes.count - bytes.count % Self.alignment
            direct: while offset < whole {
                let length = min(Self.capacity, whole - offset)
                memcpy(buffer, bytes.baseAddress! + offset, length)
                var done = 0
                while done < length {
                    let written = Foundation.write(descriptor, buffer + done, length - done)
                    if written < 0 {
                        if errno == EINTR { continue }
                        if errno == EINVAL { break direct }
                        return String(cString: strerror(errno))
                    }
                    done += written
                    offset += written
                }
            }
        }
        if direct { _ = fcntl(descriptor, F_SETFL, flags & ~Self.openFlag) }
        // The tail (and anything direct I/O was refused for) goes through the page cache.
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }

    /// The buffer, allocated on first use, if no other writer has it.
    private func acquire() -> UnsafeMutableRawPointer? {
        state.withLock { state -> UnsafeMutableRawPointer? in
            guard !state.busy else { return nil }
            if state.address == 0 {
                var memory: UnsafeMutableRawPointer?
                guard posix_memalign(&memory, Self.alignment, Self.capacity) == 0, let memory else { return nil }
                state.address = UInt(bitPattern: memory)
            }
            state.busy = true
            return UnsafeMutableRawPointer(bitPattern: state.address)
        }
    }
}
