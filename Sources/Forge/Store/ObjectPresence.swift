import Foundation

/// Whether the store holds objects, asked for many in a row (a build's plan asks for every
/// item's): each folder above them is checked once (a real folder, not a link, as
/// ``ObjectStore/contains(relativePath:)`` checks it) and kept open, then one `fstatat` per object
/// in it, so no object's path is walked from the root again.
final class ObjectPresence {
    private let store: ObjectStore
    private let root: String
    /// Each folder asked about: its descriptor, or -1 where it is not a real folder of the store.
    private var folders: [Substring: Int32] = [:]

    init(store: ObjectStore) {
        self.store = store
        root = store.root.path
    }

    deinit {
        for descriptor in folders.values where descriptor >= 0 { close(descriptor) }
    }

    /// Whether `relativePath` is a regular file of the store's, reached without a link.
    func contains(_ relativePath: String) -> Bool {
        guard relativePath.contains("/") else { return store.contains(relativePath: relativePath) }
        return status(of: relativePath).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
    }

    /// What `lstat` says of `relativePath`, in a folder reached without a link; nil where there is
    /// nothing there (or its folder is not a real folder of the store's).
    func status(of relativePath: String) -> stat? {
        let slash = relativePath.lastIndex(of: "/")
        let folder = slash.map { relativePath[..<$0] } ?? ""
        let descriptor: Int32
        if let known = folders[folder] {
            descriptor = known
        } else {
            descriptor = open(folder)
            folders[folder] = descriptor
        }
        guard descriptor >= 0 else { return nil }
        let name = slash.map { String(relativePath[relativePath.index(after: $0)...]) } ?? relativePath
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return status
    }

    /// The folder opened for lookups, if it is a real folder of the store's (-1 otherwise).
    private func open(_ folder: Substring) -> Int32 {
        let path = folder.isEmpty ? root : root + "/" + folder
        guard folder.isEmpty || (try? store.owned.check(String(folder))) != nil,
            OwnedDirectory.entry(at: path) == .directory
        else { return -1 }
        return Foundation.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }
}
