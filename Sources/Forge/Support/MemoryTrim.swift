import Foundation
import Glibc

/// Hands memory the process has freed back to the system (glibc's `malloc_trim`, which Swift's
/// Glibc module does not import; looked up once at run time), and keeps glibc from spreading it
/// over more allocation arenas than there are cores (`mallopt`, likewise).
///
/// glibc keeps what a thread frees in that thread's arena: threads that each run a large
/// search one after another would otherwise hold the sum of their largest searches for good.
package enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private static let option: Option? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt").map {
        unsafeBitCast($0, to: Option.self)
    }
    /// glibc's `M_ARENA_MAX` (malloc.h).
    private static let arenaMaximum: Int32 = -8

    /// Returns freed memory to the system; does nothing where the C library has no `malloc_trim`.
    static func release() {
        _ = trim?(0)
    }

    /// Lets glibc make at most one allocation arena per core (its default is eight per core).
    /// Each phase of a build runs on threads of its own, and a new thread takes an arena no
    /// other thread is using: with eight per core, each phase's threads got fresh arenas and
    /// what they freed stayed there, so a long book's build held more with every phase and
    /// chapter. Call at the start of the process, before other threads exist.
    package static func limitArenas() {
        _ = option?(arenaMaximum, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }
}
