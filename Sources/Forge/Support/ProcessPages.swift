import Glibc

/// This process's memory as the kernel counts it in /proc/self/statm, read without allocating
/// (a forked speaker reads it between items, where Swift must not allocate).
enum ProcessPages {
    /// The fields of /proc/self/statm, in its order.
    enum Field: Int {
        /// The whole address space.
        case size = 0
        /// The pages resident in memory.
        case resident = 1
    }

    /// The field's value in pages, or nil where the file cannot be read.
    static func read(_ field: Field) -> Int? {
        let file = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &text) { buffer -> Int? in
            let count = Glibc.read(file, buffer.baseAddress, buffer.count - 1)
            guard count > 0 else { return nil }
            let bytes = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var index = 0
            for _ in 0..<field.rawValue {
                while index < count && bytes[index] != UInt8(ascii: " ") { index += 1 }
                index += 1
            }
            var value = 0
            var digits = 0
            while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
    }

    /// The resident memory in bytes, or nil where it cannot be read.
    static var residentBytes: Int? {
        read(.resident).map { $0 * Int(getpagesize()) }
    }
}
