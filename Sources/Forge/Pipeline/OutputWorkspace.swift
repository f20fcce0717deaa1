import Foundation

/// An output directory opened for work that writes it (a build, a narration import): created if
/// missing, locked against a second writer, its object store ready with the leftovers of stopped
/// runs removed, and its manifest open.
struct OutputWorkspace {
    let lock: OutputLock
    let store: ObjectStore
    let manifest: Manifest

    init(directory: URL) throws {
        try BuildPipeline.prepareOutputDirectory(directory)
        lock = try OutputLock(directory: directory)
        store = ObjectStore(root: directory)
        try store.prepare()
        try store.owned.leftovers(remove: true)
        manifest = try Manifest(directory: directory)
    }
}
