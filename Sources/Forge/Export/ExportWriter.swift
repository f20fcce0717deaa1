import Foundation

/// Writes export files atomically (temporary file, then rename) and remembers what it wrote.
struct ExportWriter {
    let root: URL
    private(set) var written: [String] = []

    init(root: URL) {
        self.root = root
    }

    mutating func write(_ bytes: [UInt8], to relativePath: String) throws(ExportError) {
        let url = root.appendingPathComponent(relativePath)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, url.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .writeFailed(path: url.path, reason: error.localizedDescription)
        }
        written.append("exports/" + relativePath)
    }
}
