import Foundation
import Testing

/// A real nginx on 127.0.0.1 serving a Bazel HTTP cache with WebDAV `PUT`, as docs/remote-cache.md
/// sets one up: `/forge` is the cache, `/broken` answers 500 to everything, and `/flaky` is the
/// same cache failing part of the way: a blob whose digest starts with 0-7 answers 500. Started
/// per test (it starts in milliseconds), stopped when released.
final class CacheServer: @unchecked Sendable {
    /// Its process; read and replaced only by the test that owns the server.
    private var process: Process?
    let directory: TemporaryDirectory
    let port: Int
    /// With a value, every request must carry `Authorization: <value>` or gets 401.
    let authorization: String?

    static var nginx: URL? {
        ["/usr/sbin/nginx", "/usr/bin/nginx"].map(URL.init(fileURLWithPath:)).first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    var url: String { "http://127.0.0.1:\(port)/forge" }
    var brokenURL: String { "http://127.0.0.1:\(port)/broken" }
    var flakyURL: String { "http://127.0.0.1:\(port)/flaky" }
    /// The cache's files: `ac/<key>` and `cas/<sha256>`.
    var root: URL { directory.url.appendingPathComponent("root/forge") }

    init(authorization: String? = nil) throws {
        directory = try TemporaryDirectory("nginx")
        port = try Self.freePort()
        self.authorization = authorization
        for folder in ["root/forge", "body", "logs"] {
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let check = authorization.map { "if ($http_authorization != \"\($0)\") { return 401; }" } ?? ""
        let config = """
            \(getuid() == 0 ? "user root;" : "")
            daemon off;
            master_process on;
            worker_processes 1;
            pid \(directory.url.path)/nginx.pid;
            error_log \(directory.url.path)/logs/error.log;
            events { worker_connections 128; }
            http {
                access_log \(directory.url.path)/logs/access.log;
                client_body_temp_path \(directory.url.path)/body;
                proxy_temp_path \(directory.url.path)/body;
                fastcgi_temp_path \(directory.url.path)/body;
                uwsgi_temp_path \(directory.url.path)/body;
                scgi_temp_path \(directory.url.path)/body;
                server {
                    listen 127.0.0.1:\(port);
                    client_max_body_size 0;
                    location /forge/ {
                        \(check)
                        root \(directory.url.path)/root;
                        dav_methods PUT;
                        create_full_put_path on;
                        dav_access user:rw;
                    }
                    location /broken/ { return 500; }
                    location ~ ^/flaky/(.+/)?cas/[0-7] { return 500; }
                    location /flaky/ {
                        alias \(directory.url.path)/root/forge/;
                        dav_methods PUT;
                        create_full_put_path on;
                        dav_access user:rw;
                    }
                }
            }
            """
        try directory.write("nginx.conf", config)
        try start()
    }

    deinit { stop() }

    func start() throws {
        guard let nginx = Self.nginx else { throw ServerError.missing }
        let process = Process()
        process.executableURL = nginx
        process.arguments = [
            "-p", directory.url.path, "-c", directory.url.appendingPathComponent("nginx.conf").path, "-e",
            directory.url.path + "/logs/error.log",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready when it accepts a connection.
        for _ in 0..<200 {
            if Self.accepts(port: port) { return }
            guard process.isRunning else { break }
            usleep(10_000)
        }
        throw ServerError.notStarted(
            log: (try? String(contentsOf: directory.url.appendingPathComponent("logs/error.log"), encoding: .utf8))
                ?? "")
    }

    func stop() {
        guard let process, process.isRunning else { return }
        // SIGQUIT is nginx's graceful stop; SIGTERM its fast one.
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// The request lines nginx logged, as "METHOD /path status".
    func requests() -> [String] {
        let log =
            (try? String(contentsOf: directory.url.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let quote = line.firstIndex(of: "\"") else { return nil }
            let rest = line[line.index(after: quote)...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            let request = rest[..<end].split(separator: " ")
            let status = rest[rest.index(after: end)...].split(separator: " ").first ?? ""
            guard request.count >= 2 else { return nil }
            return "\(request[0]) \(request[1]) \(status)"
        }
    }

    /// Every file under `area` ("ac" or "cas") by name.
    func files(_ area: String) -> [String: URL] {
        let folder = root.appendingPathComponent(area)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { ($0, folder.appendingPathComponent($0)) })
    }

    enum ServerError: Error, CustomStringConvertible {
        case missing
        case notStarted(log: String)

        var description: String {
            switch self {
            case .missing: "nginx is not installed: run scripts/install-deps.sh --tests"
            case .notStarted(let log): "nginx did not start: \(log)"
            }
        }
    }

    static func freePort() throws -> Int {
        let (socket, port) = try bindLoopback()
        close(socket)
        return port
    }

    /// A TCP socket bound to a free port on 127.0.0.1, and the port.
    static func bindLoopback() throws -> (socket: Int32, port: Int) {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw ServerError.notStarted(log: "no free port on 127.0.0.1")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func accepts(port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A TCP server that accepts connections and never answers: a cache that hangs.
final class SilentServer: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let (listener, port) = try CacheServer.bindLoopback()
        guard listen(listener, 64) == 0 else {
            close(listener)
            throw CacheServer.ServerError.notStarted(log: "silent server: listen failed")
        }
        socket = listener
        self.port = port
        Thread {
            // Accepted connections are held open, unanswered, until the listener closes.
            var connections: [Int32] = []
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { break }
                connections.append(connection)
            }
            for connection in connections { close(connection) }
        }.start()
    }

    var url: String { "http://127.0.0.1:\(port)/forge" }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
