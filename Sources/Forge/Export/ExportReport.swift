import Foundation

/// What an export wrote.
package struct ExportReport: Sendable, Equatable {
    /// The files of one folder of `exports/` (one format, or captions of both kinds).
    package struct Folder: Sendable, Equatable {
        package var name: String
        package var files: Int
        package var bytes: Int64
    }

    /// Files written, relative to the output directory.
    package var files: [String]
    package var chapters: Int
    package var durationMs: Int
    /// Nothing was written: `exports/` already held these files, made from the same inputs.
    package var upToDate = false
    /// Chapters whose AAC this export encoded (the others' encodings were in the store, made by an
    /// earlier export or taken from the remote cache).
    package var encodedChapters = 0

    package init(files: [String], chapters: Int, durationMs: Int) {
        self.files = files
        self.chapters = chapters
        self.durationMs = durationMs
    }

    /// The files grouped by their folder under `exports/`, in the order first written, with their
    /// sizes on disk (read without following links).
    package func folders(in outputDirectory: URL) -> [Folder] {
        var folders: [Folder] = []
        var index: [String: Int] = [:]
        for file in files {
            let parts = file.split(separator: "/")
            let name = parts.count > 2 ? String(parts[1]) : String(parts.first ?? "")
            var status = stat()
            let bytes =
                lstat(outputDirectory.appendingPathComponent(file).path, &status) == 0 ? Int64(status.st_size) : 0
            if let position = index[name] {
                folders[position].files += 1
                folders[position].bytes += bytes
            } else {
                index[name] = folders.count
                folders.append(Folder(name: name, files: 1, bytes: bytes))
            }
        }
        return folders
    }
}
