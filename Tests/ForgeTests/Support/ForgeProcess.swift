import Foundation
import Synchronization

/// A real `forge` process, with its output collected line by line as it runs.
final class ForgeProcess: Sendable {
    /// The forge executable built beside the test bundle (or `FORGE_EXECUTABLE`).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["FORGE_EXECUTABLE"] { return URL(fileURLWithPath: path) }
        let runner =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
        // On macOS the runner sits inside an .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("forge")
    }

    /// The commands that print progress events (and log lines without `--json`).
    static let stageCommands: Set<String> = ["build", "split", "speak", "align"]

    let process: Process
    /// Where GNU time writes the process's peak resident memory, when it is measured.
    private let peakMemoryFile: URL?
    private let lines = Mutex<[String]>([])
    private let errorText = Mutex<String>("")
    /// How many of the two pipe readers have reached end of file.
    private let readersDone = Mutex(0)

    init(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], executable: URL? = nil,
        standardInput: Data? = nil, measuringPeakMemory: Bool = false
    ) throws {
        process = Process()
        let forge = executable ?? Self.executable
        // Tests read the recipe commands' JSON Lines events; a pipe alone now gets log lines.
        let forgeArguments =
            Self.stageCommands.contains(arguments.first ?? "") && !arguments.contains("--audio")
                && !arguments.contains("--json")
                && !arguments.contains("--help") ? arguments + ["--json"] : arguments
        if measuringPeakMemory {
            // GNU time forks forge from its own small process and reads wait4's peak. Spawned from
            // here, forge's ru_maxrss would start at this test runner's (posix_spawn's vfork shares
            // the runner's memory until exec), and polling VmHWM misses growth after the last poll.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("forge-peak-\(UUID().uuidString)")
            peakMemoryFile = file
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["--quiet", "--format=%M", "--output=\(file.path)", forge.path] + forgeArguments
        } else {
            peakMemoryFile = nil
            process.executableURL = forge
            process.arguments = forgeArguments
        }
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = standardInput == nil ? FileHandle.nullDevice : input
        try process.run()
        if let standardInput {
            let writer = input.fileHandleForWriting
            Thread {
                try? writer.write(contentsOf: standardInput)
                try? writer.close()
            }.start()
        }
        let reader = output.fileHandleForReading
        let errorReader = errors.fileHandleForReading
        Thread { [self] in
            var buffer = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    lines.withLock { $0.append(line) }
                }
            }
            if !buffer.isEmpty { lines.withLock { $0.append(String(decoding: buffer, as: UTF8.self)) } }
            readersDone.withLock { $0 += 1 }
        }.start()
        Thread { [self] in
            let data = errorReader.readDataToEndOfFile()
            errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            readersDone.withLock { $0 += 1 }
        }.start()
    }

    /// Runs forge to completion.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], executable: URL? = nil,
        standardInput: Data? = nil
    ) throws -> ForgeResult {
        let forge = try ForgeProcess(
            arguments, in: directory, environment: environment, executable: executable, standardInput: standardInput)
        return forge.wait()
    }

    var output: [String] { lines.withLock { $0 } }

    /// Polls until `count` output lines satisfy `predicate`, or the process ends, or the timeout passes.
    @discardableResult
    func waitForLines(count: Int, timeout: Double = 60, where predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.filter(predicate).count >= count { return true }
            if !process.isRunning { return output.filter(predicate).count >= count }
            usleep(5_000)
        }
        return false
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends a signal to forge and its worker processes at once, as a crash or the OOM killer would.
    func signalWithWorkers(_ number: Int32) {
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        kill(pid, number)
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, number) }
    }

    /// Sends a signal to forge and every process below it (workers, the engines they run), as a
    /// terminal's Ctrl-C reaches its whole foreground process group.
    func signalTree(_ number: Int32) {
        var pending = [process.processIdentifier]
        var all: [Int32] = []
        while let pid = pending.popLast() {
            all.append(pid)
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let children =
                    (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                pending += children.split(separator: " ").compactMap { Int32($0) }
            }
        }
        for pid in all { kill(pid, number) }
    }

    /// Waits for a process started `measuringPeakMemory`, and reads its peak resident memory in bytes
    /// (0 if it was not measured).
    func waitMeasuringPeakMemory() -> (ForgeResult, peakBytes: Int) {
        let result = wait()
        guard let peakMemoryFile else { return (result, 0) }
        defer { try? FileManager.default.removeItem(at: peakMemoryFile) }
        let text = (try? String(contentsOf: peakMemoryFile, encoding: .utf8)) ?? ""
        let kilobytes = Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? 0
        return (result, kilobytes * 1024)
    }

    func wait() -> ForgeResult {
        process.waitUntilExit()
        // The pipes reach end of file once the process and its workers have exited.
        let deadline = Date().addingTimeInterval(30)
        while readersDone.withLock({ $0 }) < 2 && Date() < deadline { usleep(5_000) }
        return ForgeResult(status: process.terminationStatus, lines: output, errors: errorText.withLock { $0 })
    }
}

/// What a finished forge process printed and returned.
struct ForgeResult {
    var status: Int32
    var lines: [String]
    var errors: String

    var text: String { lines.joined(separator: "\n") }

    /// The JSON Lines events forge printed (with --json, which ForgeProcess adds for the recipe commands).
    var events: [[String: Any]] {
        lines.compactMap { line in
            guard let data = line.data(using: .utf8) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
    }

    func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    var summary: [String: Any]? { events("summary").last }

    /// Ids of the items this run synthesized (not reused).
    var synthesizedItems: Set<String> {
        Set(events("item").filter { $0["outcome"] as? String == "synthesized" }.compactMap { $0["id"] as? String })
    }
}
