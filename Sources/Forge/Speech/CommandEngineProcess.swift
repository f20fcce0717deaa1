import Foundation

/// A running command-engine process: an external program speaking ``CommandEngineProtocol`` on its
/// standard input and output. One process serves many requests; it is stopped by closing its input.
///
/// Used from one thread at a time (a worker's synthesis loop, or the version check before a build).
public final class CommandEngineProcess {
    public let settings: CommandEngineSettings
    public let hello: CommandEngineProtocol.Hello
    private let process: Process
    private let input: FileHandle
    private let output: Int32
    private var buffer: [UInt8] = []
    private let errors: StandardErrorTail

    /// Starts the engine and reads its hello line.
    public init(_ settings: CommandEngineSettings) throws(CommandEngineError) {
        self.settings = settings
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = settings.command
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        errors = StandardErrorTail(stderr.fileHandleForReading)
        do {
            try process.run()
        } catch {
            throw .cannotStart(engine: settings.name, command: settings.command, reason: error.localizedDescription)
        }
        self.process = process
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading.fileDescriptor
        // The pipe owns the descriptor read below; it lives as long as the engine.
        stdoutPipe = stdout
        let line = try Self.readLine(from: output, buffer: &buffer, timeoutSeconds: settings.timeoutSeconds, engine: settings.name, errors: errors)
        guard let hello = try? JSONDecoder().decode(CommandEngineProtocol.Hello.self, from: Data(line)) else {
            kill(process.processIdentifier, SIGKILL)
            throw .protocolViolation(engine: settings.name, detail: "its first line was not a hello such as {\"protocol\": 1, \"engine\": \"name\", \"version\": \"1.0\"}: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        guard hello.protocol == CommandEngineProtocol.version else {
            kill(process.processIdentifier, SIGKILL)
            throw .protocolViolation(engine: settings.name, detail: "it speaks protocol \(hello.protocol); this Forge speaks \(CommandEngineProtocol.version)")
        }
        self.hello = hello
    }

    private let stdoutPipe: Pipe

    deinit {
        try? input.close()
        if process.isRunning {
            // An engine gets a moment to exit on end of input before it is stopped.
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            // SIGKILL, not SIGTERM: the engine inherits the spawning thread's blocked signal mask, so a hung
            // engine would never see SIGTERM (measured: SigBlk fffffffe3bfaea27 in a running engine).
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// The engine's identity for audio keys: its name and version.
    public var identity: String { "\(hello.engine) \(hello.version)" }

    /// Speaks one request and returns the engine's response (its `error` set when the engine refused).
    public func speak(_ request: CommandEngineProtocol.Request) throws(CommandEngineError) -> CommandEngineProtocol.Response {
        guard process.isRunning else { throw .exited(engine: settings.name, detail: errors.finalTail) }
        do {
            var line = try JSONEncoder().encode(request)
            line.append(UInt8(ascii: "\n"))
            try input.write(contentsOf: line)
        } catch {
            throw .exited(engine: settings.name, detail: "writing the request failed (\(ErrorReason.text(error))); \(errors.finalTail)")
        }
        let line = try Self.readLine(from: output, buffer: &buffer, timeoutSeconds: settings.timeoutSeconds, engine: settings.name, errors: errors)
        guard let response = try? JSONDecoder().decode(CommandEngineProtocol.Response.self, from: Data(line)) else {
            throw .protocolViolation(engine: settings.name, detail: "a response line was not JSON of the protocol: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        guard response.id == request.id else {
            throw .protocolViolation(engine: settings.name, detail: "it answered \"\(response.id)\" to the request \"\(request.id)\"")
        }
        return response
    }

    /// Reads one line, waiting at most `timeoutSeconds` for it.
    private static func readLine(
        from descriptor: Int32, buffer: inout [UInt8], timeoutSeconds: Int, engine: String, errors: StandardErrorTail
    ) throws(CommandEngineError) -> [UInt8] {
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.allSatisfy({ $0 == 32 || $0 == 13 }) { continue }
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw .timedOut(engine: engine, seconds: timeoutSeconds) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .exited(engine: engine, detail: errors.finalTail) }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}

/// The last lines an engine wrote on standard error, for messages when it fails.
final class StandardErrorTail: @unchecked Sendable {
    // `text` is only touched under `lock`; the readability handler runs on Foundation's own queue.
    private let lock = NSLock()
    private var text = ""
    /// Standard error reached its end (the engine exited and everything it wrote was read).
    private var ended = false
    private let handle: FileHandle

    init(_ handle: FileHandle) {
        self.handle = handle
        handle.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            if data.isEmpty {
                handle.readabilityHandler = nil
                self.lock.lock()
                self.ended = true
                self.lock.unlock()
                return
            }
            let received = String(decoding: data, as: UTF8.self)
            for line in received.split(separator: "\n") { ForgeLog.debug("command engine stderr: \(line)") }
            self.lock.lock()
            self.text += received
            if self.text.count > 4000 { self.text = String(self.text.suffix(2000)) }
            self.lock.unlock()
        }
    }

    /// The tail once standard error has ended (the engine exited), waiting up to a second for the
    /// last of it: a message read earlier could stop mid-line ("/usr/bin/env: ").
    var finalTail: String {
        let deadline = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < deadline {
            lock.lock()
            let done = ended
            lock.unlock()
            if done { break }
            usleep(5_000)
        }
        return tail
    }

    var tail: String {
        lock.lock()
        defer { lock.unlock() }
        let lines = text.split(separator: "\n").suffix(3).joined(separator: " | ")
        return lines.isEmpty ? "it wrote nothing on standard error" : "it said: \(lines)"
    }
}
