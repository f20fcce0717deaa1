import Foundation

/// What sits at a path, in words, when it is not the regular file forge reads or replaces.
package enum FileKind {
    /// Nil for a regular file (following links) or nothing at all; otherwise "a directory",
    /// "a named pipe (FIFO)", "a device", "a socket": what a message names.
    package static func nonRegular(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return describe(status.st_mode & S_IFMT)
    }

    /// Nil for a regular file's type, else its kind in words.
    package static func describe(_ type: mode_t) -> String? {
        switch type {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a link"
        default: "not a file"
        }
    }
}
