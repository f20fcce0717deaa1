import Foundation
import Synchronization

/// A running command-engine process: an external program speaking ``CommandEngineProtocol`` on its
/// standard input and output. One process serves many requests; it is stopped by closing its input.
///
/// Used from one thread at a time (a worker's synthesis loop, or the version check before a build).
package final class CommandEngineProcess {
    package let settings: CommandEngineSettings
    package let hello: CommandEngineProtocol.Hello
    private let child: ChildProcess
    private let lines: ResponseLines

    /// Starts the engine and reads its hello line.
    package init(_ settings: CommandEngineSettings) throws(CommandEngineError) {
        self.settings = settings
        let lines = ResponseLines()
        do {
            // Through env, so the command's program is looked up on the PATH as a shell would.
            child = try ChildProcess.startWaiting(
                executable: "/usr/bin/env", arguments: settings.command,
                errorOutput: .keep(label: "command engine stderr"),
                onLine: { lines.append($0) }, onExit: { _ in lines.end() })
        } catch {
            throw .cannotStart(engine: settings.name, command: settings.command, reason: error.localizedDescription)
        }
        self.lines = lines
        let line = try Self.readLine(
            lines, child: child, timeoutSeconds: settings.timeoutSeconds, engine: settings.name)
        guard let hello = try? JSONDecoder().decode(CommandEngineProtocol.Hello.self, from: Data(line)) else {
            child.send(.kill)
            throw .protocolViolation(
                engine: settings.name,
                detail:
                    "its first line was not a hello such as {\"protocol\": 1, \"engine\": \"name\", \"version\": \"1.0\"}: \(String(decoding: line.prefix(200), as: UTF8.self))"
            )
        }
        guard hello.protocol == CommandEngineProtocol.version else {
            child.send(.kill)
            throw .protocolViolation(
                engine: settings.name,
                detail: "it speaks protocol \(hello.protocol); this Forge speaks \(CommandEngineProtocol.version)")
        }
        self.hello = hello
    }

    deinit {
        child.finishInputWaiting()
        // An engine gets a moment to exit on end of input before it is stopped.
        let deadline = ContinuousClock.now + .seconds(2)
        while child.hasExited == nil && ContinuousClock.now < deadline { usleep(20_000) }
        // SIGKILL: an engine that ignores the end of its input may ignore SIGTERM too.
        if child.hasExited == nil { child.send(.kill) }
    }

    /// Whether the engine's process still runs.
    package var isRunning: Bool { child.hasExited == nil }

    /// The engine's identity for audio keys: its name and version.
    package var identity: String { "\(hello.engine) \(hello.version)" }

    /// Speaks one request and returns the engine's response (its `error` set when the engine refused).
    package func speak(_ request: CommandEngineProtocol.Request) throws(CommandEngineError)
        -> CommandEngineProtocol.Response
    {
        guard child.hasExited == nil else { throw .exited(engine: settings.name, detail: Self.errorDetail(child)) }
        guard var line = try? JSONEncoder().encode(request) else {
            throw .protocolViolation(
                engine: settings.name, detail: "the request for \"\(request.id)\" could not be encoded")
        }
        line.append(UInt8(ascii: "\n"))
        guard child.writeWaiting(Array(line)) else {
            throw .exited(engine: settings.name, detail: "writing the request failed; \(Self.errorDetail(child))")
        }
        let answer = try Self.readLine(
            lines, child: child, timeoutSeconds: settings.timeoutSeconds, engine: settings.name)
        guard let response = try? JSONDecoder().decode(CommandEngineProtocol.Response.self, from: Data(answer)) else {
            throw .protocolViolation(
                engine: settings.name,
                detail:
                    "a response line was not JSON of the protocol: \(String(decoding: answer.prefix(200), as: UTF8.self))"
            )
        }
        guard response.id == request.id else {
            throw .protocolViolation(
                engine: settings.name, detail: "it answered \"\(response.id)\" to the request \"\(request.id)\"")
        }
        return response
    }

    /// What the engine said on standard error, for messages.
    private static func errorDetail(_ child: ChildProcess) -> String {
        child.errorTail() ?? "it wrote nothing on standard error"
    }

    /// Reads one non-blank line, waiting at most `timeoutSeconds` for it.
    private static func readLine(
        _ lines: ResponseLines, child: ChildProcess, timeoutSeconds: Int, engine: String
    ) throws(CommandEngineError) -> [UInt8] {
        let deadline = DispatchTime.now() + .seconds(timeoutSeconds)
        while true {
            switch lines.next(until: deadline) {
            case .line(let line):
                if line.allSatisfy({ $0 == 32 || $0 == 13 }) { continue }
                return line
            case .ended:
                throw .exited(engine: engine, detail: errorDetail(child))
            case .timedOut:
                throw .timedOut(engine: engine, seconds: timeoutSeconds)
            }
        }
    }
}

/// The lines an engine has written and not yet been read, handed from the process thread to the
/// thread speaking through the engine.
private final class ResponseLines: Sendable {
    enum Next {
        case line([UInt8])
        case ended
        case timedOut
    }

    private let state = Mutex<(lines: [[UInt8]], ended: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ line: [UInt8]) {
        state.withLock { $0.lines.append(line) }
        arrived.signal()
    }

    func end() {
        state.withLock { $0.ended = true }
        arrived.signal()
    }

    func next(until deadline: DispatchTime) -> Next {
        while true {
            let taken: Next? = state.withLock { state in
                if !state.lines.isEmpty { return .line(state.lines.removeFirst()) }
                return state.ended ? .ended : nil
            }
            if let taken { return taken }
            if arrived.wait(timeout: deadline) == .timedOut { return .timedOut }
        }
    }
}
