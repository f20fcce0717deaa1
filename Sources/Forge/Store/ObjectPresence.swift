/// Whether the store holds objects, asked for many in a row (a build's plan asks for every
/// item's): each folder above them is checked once (a real folder, not a link, as
/// ``ObjectStore/contains(relativePath:)`` checks it), then one `lstat` per object.
final class ObjectPresence {
    private let store: ObjectStore
    private let root: String
    private var folders: [Substring: Bool] = [:]

    init(store: ObjectStore) {
        self.store = store
        root = store.root.path
    }

    /// Whether `relativePath` is a regular file of the store's, reached without a link.
    func contains(_ relativePath: String) -> Bool {
        guard let slash = relativePath.lastIndex(of: "/") else { return store.contains(relativePath: relativePath) }
        let folder = relativePath[..<slash]
        let isFolder: Bool
        if let known = folders[folder] {
            isFolder = known
        } else {
            isFolder =
                (try? store.owned.check(String(folder))) != nil
                && OwnedDirectory.entry(at: root + "/" + folder) == .directory
            folders[folder] = isFolder
        }
        return isFolder && OwnedDirectory.entry(at: root + "/" + relativePath) == .file
    }
}
