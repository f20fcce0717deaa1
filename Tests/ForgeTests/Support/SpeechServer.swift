import Foundation

/// scripts/speech-server.py on 127.0.0.1: one process for the whole suite, speaking OpenAI's and
/// ElevenLabs' APIs with libespeak-ng. Each test uses its own tag, so its counts are its own.
final class SpeechServer: Sendable {
    let port: Int
    /// The key the server asks for.
    let key: String
    private let process: Process
    private let directory: TemporaryDirectory

    static let script = Fixtures.packageRoot.appendingPathComponent("scripts/speech-server.py")
    /// Started on first use, shared by every test.
    static let shared = Result { try SpeechServer() }

    init() throws {
        directory = try TemporaryDirectory("speech-server")
        key = "sk-forge-test-" + UUID().uuidString
        let portFile = directory.file("port")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, portFile.path, "--key", key, "--lifetime", "1200"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<1000 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                self.port = port
                return
            }
            guard process.isRunning else { break }
            usleep(10_000)
        }
        process.terminate()
        throw CacheServer.ServerError.notStarted(log: "speech-server.py did not start")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The base URL of `mode` under `tag`.
    func url(tag: String, mode: String = "ok") -> String { "http://127.0.0.1:\(port)/\(tag)/\(mode)/v1" }

    /// Speech requests and characters the server received under `tag`.
    func stats(tag: String) throws -> (requests: Int, characters: Int) {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "-sf", "http://127.0.0.1:\(port)/\(tag)/stats"]
        let pipe = Pipe()
        curl.standardOutput = pipe
        try curl.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Int] ?? [:]
        return (object["requests"] ?? -1, object["characters"] ?? -1)
    }
}
