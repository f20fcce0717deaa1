import Foundation

/// A file a user names for forge to write outside the store (`export --pack FILE`, `say -o FILE`):
/// written whole beside it, then renamed over it, and only where that can harm nothing.
package enum WriteTarget {
    /// Why writing `url` would harm what is not forge's to replace, or nil when it is safe: the
    /// target must be a regular file or nothing (never a device, FIFO, socket or directory, which a
    /// rename would replace), and it must not be inside `outputDirectory` other than under its
    /// `exports/` folder (the manifest, objects, lock and scratch files are the store's).
    package static func problem(_ url: URL, outputDirectory: URL? = nil) -> String? {
        if let kind = FileKind.nonRegular(atPath: url.path) {
            return "it exists and is \(kind), not a regular file; only a regular file is replaced"
        }
        guard let outputDirectory else { return nil }
        // Compared where they really are, through any link or `..`.
        guard let store = realPath(outputDirectory.path), let folder = realPath(url.deletingLastPathComponent().path)
        else { return nil }
        let target = folder == "/" ? "/" + url.lastPathComponent : folder + "/" + url.lastPathComponent
        guard target == store || target.hasPrefix(store + "/") else { return nil }
        let inside = target.dropFirst(store.count).split(separator: "/")
        if inside.count >= 2, inside.first == "exports" { return nil }
        return
            "it is inside the output directory \(outputDirectory.path), whose files (manifest, objects, lock) are the store's; write it elsewhere, or under its exports/ folder"
    }

    /// Renames `temporary` over `url`, checking again first that `url` is a regular file or nothing.
    package static func replace(_ url: URL, with temporary: URL) throws {
        var status = stat()
        if lstat(url.path, &status) == 0 {
            let type = status.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFLNK, problem(url) == nil else {
                throw POSIXError(
                    .EEXIST,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "\(url.path) became \(FileKind.describe(type) ?? "another file") while it was written"
                    ])
            }
        }
        if rename(temporary.path, url.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
