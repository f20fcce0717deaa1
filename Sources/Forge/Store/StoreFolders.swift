import Foundation
import Synchronization

/// Descriptors of the store's folders (`objects/tmp` and the shard folders under `objects/`),
/// each opened once, without following a link, and kept while the store is in use.
///
/// Writing an object then resolves no path but its own name in its folder: a worker's store is
/// reached through `/proc/<pid>/fd/<n>` (the locked output directory), and every path resolved
/// through it costs a walk of procfs (writing an object by paths took about ten). A link planted
/// where a folder belongs is refused when the folder is opened, and a link swapped in later
/// cannot redirect writes made through a descriptor already open.
final class StoreFolders: Sendable {
    private let rootPath: String
    private let opened = Mutex<[String: Int32]>([:])

    init(rootPath: String) {
        self.rootPath = rootPath
    }

    deinit {
        opened.withLock { descriptors in
            for descriptor in descriptors.values { close(descriptor) }
        }
    }

    /// The descriptor of the folder `relative` (components separated by `/`, no `..`), creating
    /// it and any missing parent as real folders.
    func descriptor(_ relative: String) throws(StoreError) -> Int32 {
        try opened.withLock { descriptors throws(StoreError) -> Int32 in
            if let known = descriptors[relative] { return known }
            var parent: Int32
            if let root = descriptors[""] {
                parent = root
            } else {
                parent = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard parent >= 0 else { throw .cannotCreate(path: rootPath, reason: String(cString: strerror(errno))) }
                descriptors[""] = parent
            }
            var path = ""
            for part in relative.split(separator: "/").map(String.init) {
                guard part != "..", part != "." else {
                    throw .writeFailed(path: relative, reason: "the path leaves the output directory")
                }
                path += path.isEmpty ? part : "/" + part
                if let known = descriptors[path] {
                    parent = known
                    continue
                }
                if mkdirat(parent, part, 0o755) != 0 && errno != EEXIST {
                    throw .cannotCreate(path: rootPath + "/" + path, reason: String(cString: strerror(errno)))
                }
                let folder = openat(parent, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard folder >= 0 else {
                    let reason = errno
                    guard reason == ELOOP || reason == ENOTDIR else {
                        throw .cannotCreate(path: rootPath + "/" + path, reason: String(cString: strerror(reason)))
                    }
                    // Opening a link to a folder this way fails with ENOTDIR, like opening a file.
                    if OwnedDirectory.entry(part, in: parent) == .link {
                        throw .linkInOutput(path: rootPath + "/" + path)
                    }
                    throw .notForgesFile(path: rootPath + "/" + path, expected: "a folder")
                }
                descriptors[path] = folder
                parent = folder
            }
            return parent
        }
    }
}
