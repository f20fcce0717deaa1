import Foundation

/// `forge fsck`: checks an output directory's store against its manifest, and repairs it.
///
/// Every recorded object is re-hashed; every item reference must resolve; files in the store
/// without a record (orphans) and temporary files (leftovers) are found. Repair marks items
/// whose objects are missing or corrupt for rebuild (the next build restores them), removes
/// bad objects, orphans and leftovers, and never touches a good object.
package struct StoreAuditor: Sendable {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// Checks the directory, holding its lock so no build changes it meanwhile.
    package func audit() throws -> AuditReport {
        let manifest = try Manifest(directory: directory, create: false)
        let lock = try OutputLock(directory: directory)
        defer { withExtendedLifetime(lock) {} }
        return try audit(manifest)
    }

    func audit(_ manifest: Manifest) throws -> AuditReport {
        let store = ObjectStore(root: directory)
        var report = AuditReport(
            outputDirectory: directory.path, objectsChecked: 0, bytesChecked: 0, itemsChecked: 0, problems: [])
        let integrity = try manifest.integrityCheck()
        if integrity != "ok" { report.problems.append(.databaseDamaged(integrity)) }

        let objects = try manifest.allObjects()
        let remote = try manifest.remoteObjectKeys()
        var recordedPaths = Set<String>()
        for object in objects {
            recordedPaths.insert(object.path)
            let url = store.url(forRelativePath: object.path)
            // Audio a build left in the remote cache is not here by design; once fetched it is checked.
            if remote.contains(object.key) && !store.contains(relativePath: object.path) {
                report.remoteObjects += 1
                report.remoteBytes += object.bytes
                continue
            }
            // An object behind a linked folder is unreachable: reported missing (its items are
            // rebuilt), never hashed or removed through the link; the link itself is listed below.
            guard
                (try? OwnedDirectory(root: directory).check((object.path as NSString).deletingLastPathComponent)) != nil
            else {
                report.problems.append(.missingObject(key: object.key, path: object.path))
                continue
            }
            var status = stat()
            guard lstat(url.path, &status) == 0 else {
                report.problems.append(.missingObject(key: object.key, path: object.path))
                continue
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                report.problems.append(.notARegularFile(path: object.path))
                continue
            }
            let hash = try ContentHash.sha256Hex(fileAt: url)
            report.objectsChecked += 1
            report.bytesChecked += Int(status.st_size)
            if hash != object.sha256 {
                report.problems.append(
                    .corruptObject(key: object.key, path: object.path, expected: object.sha256, found: hash))
            }
        }

        let keys = Set(objects.map(\.key))
        let items = try manifest.items()
        report.itemsChecked = items.count
        let untimed = Set(try manifest.itemsWithUntimedWords())
        for item in items where item.status == .done || item.status == .spoken {
            for key in [item.audioKey, item.eventsKey].compactMap({ $0 }) where !keys.contains(key) {
                report.problems.append(.danglingReference(itemID: item.id, key: key))
            }
            if item.status == .done && untimed.contains(item.id) {
                report.problems.append(.missingTimings(itemID: item.id))
            }
        }

        let owned = OwnedDirectory(root: directory)
        let links = owned.links(under: "").filter { !$0.hasPrefix("objects/") || $0 == "objects/tmp" }
        report.problems += links.map { .linkInOutput(path: $0) }
        for path in storeFiles(store) where !recordedPaths.contains(path) {
            // A link (to a file or a folder) is reported as a link, which repair removes without following.
            report.problems.append(
                OwnedDirectory.entry(at: store.url(forRelativePath: path).path) == .link
                    ? .linkInOutput(path: path) : .unrecordedObject(path: path))
        }
        if !links.contains(where: { $0 == "objects" || $0 == "objects/tmp" || $0 == "exports" || $0 == "verify" }) {
            report.problems += try owned.leftovers(remove: false).map { .leftover(path: $0) }
        }
        return report
    }

    /// Repairs what `audit` found and returns the report of what was wrong before.
    package func repair() throws -> AuditReport {
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(Manifest.fileName).path) else {
            throw StoreError.notAnOutputDirectory(path: directory.path)
        }
        let manifest = try Manifest(directory: directory)
        let lock = try OutputLock(directory: directory)
        defer { withExtendedLifetime(lock) {} }
        let report = try audit(manifest)
        let store = ObjectStore(root: directory)
        var badKeys: [String] = []
        var rebuildItems: [String] = []
        var realignItems: [String] = []
        for problem in report.problems {
            switch problem {
            case .missingObject(let key, _):
                badKeys.append(key)
            case .corruptObject(let key, let path, _, _):
                badKeys.append(key)
                unlink(store.url(forRelativePath: path).path)
            case .notARegularFile(let path):
                let url = store.url(forRelativePath: path)
                if unlink(url.path) != 0 { try? FileManager.default.removeItem(at: url) }
                badKeys.append(contentsOf: try manifest.objectKeys(atPath: path))
            case .danglingReference(let itemID, _):
                rebuildItems.append(itemID)
            case .missingTimings(let itemID):
                realignItems.append(itemID)
            case .unrecordedObject(let path), .leftover(let path), .linkInOutput(let path):
                // unlink removes a link itself, never what it points to.
                unlink(store.url(forRelativePath: path).path)
            case .databaseDamaged:
                break
            }
        }
        try manifest.forgetObjects(badKeys)
        try manifest.markPending(rebuildItems)
        try manifest.markSpoken(realignItems)
        return report
    }

    /// Every regular file and symlink under `objects/` (but `objects/tmp/`), as paths relative to the output directory.
    func storeFiles(_ store: ObjectStore) -> [String] {
        var paths: [String] = []
        let base = store.objectsDirectory
        // A link at objects/ is reported as such, never listed through.
        guard OwnedDirectory.entry(at: base.path) == .directory else { return [] }
        let shards = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        // objects/tmp holds temporary files, reported as leftovers.
        for shard in shards.sorted() where shard != "tmp" {
            let folder = base.appendingPathComponent(shard)
            var status = stat()
            guard lstat(folder.path, &status) == 0 else { continue }
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                paths.append("objects/\(shard)")
                continue
            }
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                paths.append("objects/\(shard)/\(name)")
            }
        }
        return paths
    }
}
