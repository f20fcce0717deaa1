import Foundation

/// The output directory as Forge touches it: every folder and file Forge creates, writes, reads
/// or deletes inside it is reached without following a symbolic link.
///
/// The output directory itself was checked against the project boundary with its links
/// resolved; below it, a link where Forge keeps its own folder or file (`objects/tmp`,
/// `exports/`, `.forge.lock`, the manifest) is never followed: it is refused with
/// ``StoreError/linkInOutput(path:)``, and `forge fsck` reports it. Removal of temporary files
/// goes through a descriptor of their folder opened with `O_NOFOLLOW`, so a link swapped in
/// cannot redirect it.
package struct OwnedDirectory: Sendable {
    package let root: URL

    package init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// What sits at a path, without following a link there.
    enum Entry: Equatable {
        case missing
        case directory
        case file
        case link
        case other
    }

    static func entry(at path: String) -> Entry {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .missing }
        return entry(status)
    }

    /// What sits at `name` in the folder open at `folder`, without following a link there.
    static func entry(_ name: String, in folder: Int32) -> Entry {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        return entry(status)
    }

    private static func entry(_ status: stat) -> Entry {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        case S_IFLNK: return .link
        default: return .other
        }
    }

    func url(_ relative: String) -> URL {
        relative.isEmpty ? root : root.appendingPathComponent(relative)
    }

    /// The components of a relative path, refusing `..` and absolute paths (a programming error
    /// here, never user input, but cheap to hold to).
    private static func components(_ relative: String) throws(StoreError) -> [String] {
        let parts = relative.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !relative.hasPrefix("/"), !parts.contains("..") else {
            throw .writeFailed(path: relative, reason: "the path leaves the output directory")
        }
        return parts
    }

    /// Checks that every existing component of `relative` is a real folder (the last may be a
    /// regular file when `lastIsFile`), never a link. Missing components are fine.
    package func check(_ relative: String, lastIsFile: Bool = false) throws(StoreError) {
        let parts = try Self.components(relative)
        var path = root.path
        for (index, part) in parts.enumerated() {
            path += "/" + part
            let isLast = index == parts.count - 1
            switch Self.entry(at: path) {
            case .missing: return
            case .directory: if isLast && lastIsFile { throw .notForgesFile(path: path, expected: "a file") }
            case .file: if !(isLast && lastIsFile) { throw .notForgesFile(path: path, expected: "a folder") }
            case .link: throw .linkInOutput(path: path)
            case .other: throw .notForgesFile(path: path, expected: isLast && lastIsFile ? "a file" : "a folder")
            }
        }
    }

    /// Creates the folder `relative` and any missing parents as real folders; an existing
    /// component that is a link or a file is refused.
    @discardableResult
    package func makeDirectory(_ relative: String) throws(StoreError) -> URL {
        let parts = try Self.components(relative)
        var path = root.path
        for part in parts {
            path += "/" + part
            if mkdir(path, 0o755) == 0 { continue }
            let reason = errno
            switch Self.entry(at: path) {
            case .directory: continue
            case .link: throw .linkInOutput(path: path)
            case .missing: throw .cannotCreate(path: path, reason: String(cString: strerror(reason)))
            case .file, .other: throw .notForgesFile(path: path, expected: "a folder")
            }
        }
        return url(relative)
    }

    /// Creates `relative` as a new file (never an existing one, never through a link) and returns
    /// its descriptor, open for writing. Its folder must exist (see ``makeDirectory(_:)``).
    package func createFile(_ relative: String, readable: Bool = false) throws(StoreError) -> Int32 {
        try check((relative as NSString).deletingLastPathComponent)
        let path = url(relative).path
        let descriptor = open(path, (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST, Self.entry(at: path) == .link { throw .linkInOutput(path: path) }
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        return descriptor
    }

    /// Writes `bytes` as the file `relative`, in place of any file there, whole or not at all: into
    /// `.<name>.<pid>.tmp` beside it (a leftover if the process dies), then renamed over it.
    package func replaceFile(_ relative: String, with bytes: [UInt8]) throws(StoreError) {
        let folder = (relative as NSString).deletingLastPathComponent
        let scratch =
            (folder.isEmpty ? "" : folder + "/") + ".\((relative as NSString).lastPathComponent).\(getpid()).tmp"
        unlink(url(scratch).path)
        let descriptor = try createFile(scratch)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(url(scratch).path)
                throw .writeFailed(path: url(relative).path, reason: reason)
            }
            offset += written
        }
        close(descriptor)
        guard rename(url(scratch).path, url(relative).path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(url(scratch).path)
            throw .writeFailed(path: url(relative).path, reason: reason)
        }
    }

    /// Opens an existing file of Forge's for reading, refusing a link at it or above it.
    package func openForReading(_ relative: String) throws(StoreError) -> Int32 {
        try check(relative, lastIsFile: true)
        let path = url(relative).path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .linkInOutput(path: path) }
            throw .readFailed(path: path, reason: String(cString: strerror(errno)))
        }
        return descriptor
    }

    /// Reads a whole file of Forge's, refusing links.
    package func read(_ relative: String) throws(StoreError) -> Data {
        let descriptor = try openForReading(relative)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .readFailed(path: url(relative).path, reason: ErrorReason.text(error))
        }
    }

    /// Removes, inside the folder `relative`, every regular file and link (never what a link
    /// points to) whose name `matches`; recurses into real subfolders when `recursive`. Works
    /// through a descriptor of each folder opened without following links, so a folder that is
    /// a link is refused rather than emptied. Returns the removed paths, relative to the root.
    @discardableResult
    package func removeFiles(in relative: String, recursive: Bool = false, where matches: (String) -> Bool)
        throws(StoreError) -> [String]
    {
        try files(in: relative, recursive: recursive, remove: true, where: matches)
    }

    /// The files (and links) in the folder `relative` whose name `matches`, found the same way
    /// as ``removeFiles(in:recursive:where:)`` finds them, removing them when `remove`.
    package func files(
        in relative: String, recursive: Bool = false, remove: Bool = false, where matches: (String) -> Bool
    ) throws(StoreError) -> [String] {
        try check(relative)
        let path = url(relative).path
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT { return [] }
            if errno == ELOOP || errno == ENOTDIR {
                throw Self.entry(at: path) == .link
                    ? .linkInOutput(path: path) : .notForgesFile(path: path, expected: "a folder")
            }
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        return Self.files(
            inDescriptor: folder, relative: relative, recursive: recursive, remove: remove, matches: matches)
    }

    private static func files(
        inDescriptor folder: Int32, relative: String, recursive: Bool, remove: Bool, matches: (String) -> Bool
    ) -> [String] {
        // fdopendir takes the descriptor; closedir closes it.
        guard let stream = fdopendir(folder) else {
            close(folder)
            return []
        }
        defer { closedir(stream) }
        var removed: [String] = []
        var subfolders: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let type = status.st_mode & S_IFMT
            let path = relative.isEmpty ? name : relative + "/" + name
            if type == S_IFDIR {
                if recursive { subfolders.append(name) }
            } else if matches(name), !remove || unlinkat(folder, name, 0) == 0 {
                removed.append(path)
            }
        }
        for name in subfolders {
            let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { continue }
            removed += files(
                inDescriptor: child, relative: relative.isEmpty ? name : relative + "/" + name, recursive: true,
                remove: remove, matches: matches)
        }
        return removed
    }

    /// Every path (relative to the root) under `relative` that is a link or a file where a
    /// folder belongs, found without following links: what `forge fsck` reports.
    package func links(under relative: String) -> [String] {
        var found: [String] = []
        var pending = [relative]
        while let current = pending.popLast() {
            let path = url(current).path
            switch Self.entry(at: path) {
            case .link:
                found.append(current)
                continue
            case .directory:
                break
            default:
                continue
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let child = current.isEmpty ? name : current + "/" + name
                switch Self.entry(at: url(child).path) {
                case .link: found.append(child)
                case .directory: pending.append(child)
                default: break
                }
            }
        }
        return found.sorted()
    }

    /// Temporary files left by a forge that was killed: everything in `objects/tmp/`, and the
    /// `.<name>.<pid>.tmp` files of processes no longer running in `exports/`, `verify/` and the
    /// output directory itself. Call while holding the directory's ``OutputLock`` (no other forge
    /// writes here then). Removes them when `remove`; returns their paths.
    @discardableResult
    package func leftovers(remove: Bool) throws(StoreError) -> [String] {
        var found = try files(in: "objects/tmp", remove: remove) { _ in true }
        found += try files(in: "", remove: remove, where: Self.isLeftover)
        for folder in ["exports", "verify", "recording"] {
            found += try files(in: folder, recursive: true, remove: remove, where: Self.isLeftover)
        }
        return found.sorted()
    }

    /// A temporary file Forge writes beside its target: `.<name>.<pid>.tmp` (or `.sqlite` for a
    /// pack's manifest copy, or `.<name>.<pid>.tmp.XXXXXX`, where libzip writes a pack before
    /// renaming it). Those of processes no longer running are leftovers.
    package static func isTemporaryName(_ name: String) -> Bool {
        var name = Substring(name)
        if let dot = name.lastIndex(of: "."), name[..<dot].hasSuffix(".tmp"),
            name.distance(from: dot, to: name.endIndex) == 7
        {
            name = name[..<dot]
        }
        guard name.hasPrefix("."), name.hasSuffix(".tmp") || name.hasSuffix(".sqlite") else { return false }
        let parts = name.split(separator: ".")
        return parts.count >= 3 && Int32(parts[parts.count - 2]) != nil
    }

    /// The process id in a temporary file's name, if any.
    static func writer(ofTemporaryName name: String) -> Int32? {
        guard isTemporaryName(name) else { return nil }
        var parts = name.split(separator: ".")
        if parts.last != "tmp" && parts.last != "sqlite" { parts.removeLast() }
        return Int32(parts[parts.count - 2])
    }

    /// Whether the process that wrote a temporary file has gone (so the file is a leftover).
    package static func isLeftover(_ name: String) -> Bool {
        guard let pid = writer(ofTemporaryName: name) else { return false }
        return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

}
