import Foundation

/// A stage's item updates on their way to the manifest, committed in batches — every
/// `saveInterval` items, or by default every 64 items or a second after the last commit — each
/// in one transaction, after which the output directory must still be where the build found it.
struct ItemRecorder {
    let manifest: Manifest
    let buildID: Int64
    /// The recipe's `build.saveInterval` (nil: the automatic batches).
    let saveInterval: Int?
    /// The output directory's lock, pinned to it; nil where nothing pins it.
    let pin: OutputLock?
    let outputDirectory: URL

    private var pending: [ItemUpdate] = []
    /// Items whose updates wait for the next commit.
    private(set) var pendingItems = 0
    /// When this recorder last committed (or started): an automatic save waits at most a second.
    private var lastCommit = ContinuousClock.now

    init(manifest: Manifest, buildID: Int64, saveInterval: Int?, pin: OutputLock?, outputDirectory: URL) {
        self.manifest = manifest
        self.buildID = buildID
        self.saveInterval = saveInterval
        self.pin = pin
        self.outputDirectory = outputDirectory
    }

    /// Queues one item's updates.
    mutating func add(_ updates: [ItemUpdate]) {
        pending.append(contentsOf: updates)
        pendingItems += 1
    }

    /// Whether the items waiting make a batch.
    var isDue: Bool {
        if let saveInterval { return pendingItems >= saveInterval }
        return pendingItems >= BuildSettings.automaticSaveItems
            || lastCommit.duration(to: .now) >= BuildSettings.automaticSaveSeconds
    }

    /// Commits every waiting update in one transaction; returns how many items it finished.
    mutating func commit() throws -> Int {
        guard !pending.isEmpty else { return 0 }
        try manifest.apply(pending, build: buildID)
        lastCommit = .now
        let committed = pendingItems
        pending.removeAll(keepingCapacity: true)
        pendingItems = 0
        // What was just committed went with the directory (the manifest and the workers' objects
        // are reached through descriptors); nothing more is written once its name leads elsewhere.
        if let pin, !pin.isStill(at: outputDirectory) {
            throw StoreError.outputMoved(path: outputDirectory.path)
        }
        return committed
    }
}
