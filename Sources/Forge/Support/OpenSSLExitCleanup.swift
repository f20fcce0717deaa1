import Foundation
import Glibc

/// Keeps OpenSSL from tearing itself down when the process exits.
///
/// libzip (random names for the pack's temporary file) and libcurl (TLS) use OpenSSL on Forge's
/// blocking threads, and OpenSSL then gives each such thread state it frees when the thread ends.
/// By default OpenSSL also registers `OPENSSL_cleanup` with `atexit`, which frees what those
/// thread-end handlers still use: a blocking thread still ending while the process exits would
/// free the same state as the exit handler, after the command's work is done. Initialised with
/// `OPENSSL_INIT_NO_ATEXIT` first, OpenSSL leaves its memory to the system, which reclaims it at
/// exit anyway.
///
/// Forge links no OpenSSL of its own (the libraries above bring it), so the entry point is looked
/// up at run time, like ``MemoryTrim``'s.
package enum OpenSSLExitCleanup {
    private typealias Initialize = @convention(c) (UInt64, UnsafeRawPointer?) -> Int32
    private static let initialize: Initialize? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "OPENSSL_init_crypto")
        .map { unsafeBitCast($0, to: Initialize.self) }
    /// OpenSSL's `OPENSSL_INIT_NO_ATEXIT` (crypto.h).
    private static let noAtExit: UInt64 = 0x0008_0000

    /// Initialises OpenSSL without its exit handler. Call at the start of the process, before any
    /// thread uses OpenSSL: the first initialisation decides whether the handler is registered.
    package static func skip() {
        _ = initialize?(noAtExit, nil)
    }
}
