import Glibc

/// Hands memory the process has freed back to the system (glibc's `malloc_trim`, which Swift's
/// Glibc module does not import; looked up once at run time).
///
/// glibc keeps what a thread frees in that thread's arena: threads that each run a large
/// search one after another would otherwise hold the sum of their largest searches for good.
enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }

    /// Returns freed memory to the system; does nothing where the C library has no `malloc_trim`.
    static func release() {
        _ = trim?(0)
    }
}
