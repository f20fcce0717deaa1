/// Something `forge fsck` found wrong in an output directory.
package enum AuditProblem: Sendable, Equatable, CustomStringConvertible {
    /// `PRAGMA integrity_check` did not answer "ok".
    case databaseDamaged(String)
    /// The manifest records an object whose file is gone.
    case missingObject(key: String, path: String)
    /// An object's bytes no longer match the hash recorded when it was written.
    case corruptObject(key: String, path: String, expected: String, found: String)
    /// An object's place holds something other than a regular file (a symlink is never followed).
    case notARegularFile(path: String)
    /// An item refers to an object key the manifest has no record of.
    case danglingReference(itemID: String, key: String)
    /// An item is marked done but some of its words have no timing.
    case missingTimings(itemID: String)
    /// A file in the store that no manifest row describes (left by an interrupted build, or copied in).
    case unrecordedObject(path: String)
    /// A temporary file left by an interrupted write.
    case leftover(path: String)
    /// A symbolic link where forge keeps its own folder or file; forge never follows it.
    case linkInOutput(path: String)

    package var description: String {
        switch self {
        case .databaseDamaged(let message): return "manifest.sqlite: integrity check failed: \(message)"
        case .missingObject(let key, let path):
            return "\(path): missing (object \(key.prefix(12))… is recorded but its file is gone)"
        case .corruptObject(_, let path, let expected, let found):
            return "\(path): corrupt (sha256 \(found.prefix(12))…, recorded \(expected.prefix(12))…)"
        case .notARegularFile(let path):
            return "\(path): not a regular file (a symlink or directory where an object belongs)"
        case .danglingReference(let itemID, let key):
            return "item \(itemID): refers to object \(key.prefix(12))…, which the manifest does not record"
        case .missingTimings(let itemID): return "item \(itemID): marked done but some words have no timing"
        case .unrecordedObject(let path): return "\(path): orphan (no manifest record)"
        case .leftover(let path): return "\(path): leftover temporary file"
        case .linkInOutput(let path):
            return
                "\(path): a symbolic link where forge keeps its own files (never followed; --repair removes the link, not what it points to)"
        }
    }
}
