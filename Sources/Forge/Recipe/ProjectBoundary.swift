import Foundation

/// The folder a recipe may read from and write into: the nearest ancestor of the recipe's folder
/// that holds `.git`, `Package.swift` or `.forge-project`, else the recipe's own folder.
///
/// A recipe from an untrusted pull request must not read `/etc/passwd` as a source or write
/// outside the checkout, whether through `..` or a symbolic link; paths are compared after
/// resolving symbolic links.
package struct ProjectBoundary: Sendable, Equatable {
    package static let markers = [".git", "Package.swift", ".forge-project"]

    /// The project folder, with symbolic links resolved.
    package let root: URL

    package init(recipeFolder: URL) {
        var candidate = Self.resolved(recipeFolder)
        var found: URL?
        while true {
            if Self.markers.contains(where: {
                FileManager.default.fileExists(atPath: candidate.appendingPathComponent($0).path)
            }) {
                found = candidate
                break
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { break }
            candidate = parent
        }
        root = found ?? Self.resolved(recipeFolder)
    }

    /// Whether `url`, once symbolic links are resolved, lies inside the project.
    package func contains(_ url: URL) -> Bool {
        let path = Self.resolved(url).path
        let rootPath = root.path
        return path == rootPath || path.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/")
    }

    /// `url` with symbolic links resolved, for its longest existing prefix (the rest may not exist yet).
    static func resolved(_ url: URL) -> URL {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = URL(
            fileURLWithPath: realpath(existing.path, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            } ?? existing.path)
        for component in rest { resolved.appendPathComponent(component) }
        return resolved
    }
}
