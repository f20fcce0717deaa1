import Foundation

/// What a complete build's result depends on, as one hash, so a rebuild with nothing changed
/// answers "nothing to do" without splitting the sources or loading any item.
///
/// The inputs are the forge version, the recipe's bytes, every source's and the lexicon's bytes,
/// the engines' versions and the stages; the state is what other commands (or people) may change
/// in the output directory afterwards: how many items are done, the verification chunks, the
/// stamp of the last export, and each object file's kind, size, inode and change time. A build that succeeded records the hash of both; the next build compares.
struct BuildFingerprint {
    /// Nil when the recipe reads standard input (which cannot be compared without reading it whole).
    let inputs: String?

    init(recipe: Recipe, engineVersions: [String: String], stages: Set<Stage>) throws {
        guard !recipe.sources.contains(where: { $0.standardInput != nil }) else {
            inputs = nil
            return
        }
        var text = "forge \(ForgeVersion.current)|recipe \(recipe.contentHash)|output \(recipe.outputDirectory.path)"
        text += "|stages " + Stage.allCases.filter(stages.contains).map(\.rawValue).joined(separator: ",")
        text +=
            "|engines "
            + engineVersions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        do {
            for source in recipe.sources {
                text +=
                    "|source \(source.url.path) \(source.format.rawValue) \(try ContentHash.sha256Hex(fileAt: source.url))"
            }
            if let lexicon = recipe.lexiconFile { text += "|lexicon \(try ContentHash.sha256Hex(fileAt: lexicon))" }
        } catch {
            // An unreadable source is the splitter's to report, with its own message.
            inputs = nil
            return
        }
        inputs = ContentHash.sha256Hex(text)
    }

    /// The fingerprint of the inputs and of the output directory's state now, or nil: the
    /// inputs' hash, "/", the state's hash (so a build whose inputs changed is told so without
    /// looking at the directory).
    func current(in manifest: Manifest, directory: URL) throws -> String? {
        guard let inputs else { return nil }
        let counts = try manifest.itemTotals()
        let chunks = try manifest.chunkCount()
        let exportStamp =
            (try? OwnedDirectory(root: directory).read("exports/.forge-export-stamp")).map {
                String(decoding: $0, as: UTF8.self)
            } ?? "-"
        var text = "items \(counts.items) done \(counts.done)|chunks \(chunks)|exports \(exportStamp)|objects"
        // Each object file as lstat sees it (kind, size, inode, change time), not its bytes: an
        // object deleted, replaced or turned into a link behind the store's back sends the build
        // down the full path, which checks and remakes it. One lstat per object, no reading.
        let presence = ObjectPresence(store: ObjectStore(root: directory))
        for path in try manifest.objectPaths() {
            if let status = presence.status(of: path) {
                text +=
                    "|\(path):\(status.st_mode):\(status.st_size):\(status.st_ino):\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)"
            } else {
                text += "|\(path):missing"
            }
        }
        return inputs + "/" + ContentHash.sha256Hex(text)
    }

    /// The fingerprint the last build recorded, if it succeeded with these inputs and nothing
    /// changed since; nil otherwise.
    func upToDate(_ manifest: Manifest, directory: URL) throws -> String? {
        guard let inputs, let last = try manifest.lastBuild(), last.outcome == .succeeded,
            let recorded = last.fingerprint,
            recorded.hasPrefix(inputs + "/"), let now = try current(in: manifest, directory: directory)
        else { return nil }
        return recorded == now ? now : nil
    }
}
