import Crypto
import Foundation

/// SHA-256 digests as lowercase hex, the currency of the content-addressed store.
package enum ContentHash {
    package static func sha256Hex<Bytes: DataProtocol>(_ data: Bytes) -> String {
        hex(SHA256.hash(data: data))
    }

    package static func sha256Hex(_ text: String) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
    }

    /// Hashes a regular file in bounded memory. Anything else is refused without blocking: a
    /// FIFO would hold the open (and the build) until a writer came, and a device never ends.
    package static func sha256Hex(fileAt url: URL) throws -> String {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw POSIXError(.EINVAL, userInfo: [NSLocalizedDescriptionKey: "\(url.path) is not a regular file"])
        }
        return try sha256Hex(of: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// The hash of what `handle` reads to its end; closes it.
    package static func sha256Hex(of handle: FileHandle) throws -> String {
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hex(hasher.finalize())
    }

    static func hex<Digest: Sequence>(_ digest: Digest) -> String where Digest.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
