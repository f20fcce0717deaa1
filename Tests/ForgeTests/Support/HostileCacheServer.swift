import Foundation

/// scripts/hostile-cache-server.py on 127.0.0.1: one process for the whole suite, each behaviour
/// at its own path (`url(mode)`), all serving the entries and blobs PUT to the honest one.
final class HostileCacheServer: Sendable {
    let port: Int
    private let process: Process
    private let directory: TemporaryDirectory

    static let script = Fixtures.packageRoot.appendingPathComponent("scripts/hostile-cache-server.py")

    init() throws {
        directory = try TemporaryDirectory("hostile-cache")
        let portFile = directory.file("port")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, portFile.path, "--lifetime", "900"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                self.port = port
                return
            }
            guard process.isRunning else { break }
            usleep(10_000)
        }
        process.terminate()
        throw CacheServer.ServerError.notStarted(log: "hostile-cache-server.py did not start")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    func url(_ mode: String) -> String { "http://127.0.0.1:\(port)/\(mode)" }
}
