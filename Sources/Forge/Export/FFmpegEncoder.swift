import Foundation

/// ffmpeg (Debian's `ffmpeg`), run as an external program to encode AAC (M4B) and MP3 at ACX's
/// settings: raw 16-bit mono PCM is streamed to its standard input, so no more than the chapter
/// in hand is ever held in memory, and ffmpeg writes the file. Its arguments are Forge's own;
/// paths are ones Forge created inside the output directory.
final class FFmpegEncoder {
    /// The ffmpeg program: `FORGE_FFMPEG`, else the first `ffmpeg` on the PATH.
    static func locate() throws(ExportError) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["FORGE_FFMPEG"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else { throw .toolMissing(tool: "ffmpeg", detail: "FORGE_FFMPEG names \(path), which is not an executable") }
            return URL(fileURLWithPath: path)
        }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw .toolMissing(tool: "ffmpeg", detail: "no ffmpeg on the PATH")
    }

    private let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private var errorText = Data()
    private let errorReader: Thread

    /// Starts ffmpeg reading raw PCM (`sampleRate` Hz, mono, s16le) from standard input, with
    /// `arguments` after the input (more inputs, maps, codec, output).
    init(sampleRate: Int, arguments: [String]) throws(ExportError) {
        process.executableURL = try Self.locate()
        process.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "s16le", "-ar", String(sampleRate), "-ac", "1", "-i", "pipe:0"] + arguments
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let reader = errors.fileHandleForReading
        let collected = ErrorCollector()
        errorReader = Thread { collected.data = reader.readDataToEndOfFile() }
        self.collected = collected
        do {
            try process.run()
        } catch {
            throw .toolMissing(tool: "ffmpeg", detail: ErrorReason.text(error))
        }
        errorReader.start()
    }

    /// ffmpeg's standard error, read on its own thread so a chatty ffmpeg never blocks.
    private final class ErrorCollector: @unchecked Sendable {
        // Written once by the reader thread before it ends, read after the process has exited.
        var data = Data()
    }
    private let collected: ErrorCollector

    /// Sends samples to ffmpeg, a block (about a second of audio) at a time: ffmpeg reads as fast
    /// as it encodes, so a chapter takes seconds, and a stop is honoured between blocks.
    func write(_ samples: ArraySlice<Int16>, cancellation: CancellationFlag? = nil) throws(ExportError) {
        var start = samples.startIndex
        while start < samples.endIndex {
            if cancellation?.isCancelled == true { throw .cancelled(written: 0) }
            let end = min(samples.endIndex, start + Self.blockSamples)
            let bytes = samples[start..<end].withUnsafeBufferPointer { Data(buffer: $0) }
            do {
                try input.fileHandleForWriting.write(contentsOf: bytes)
            } catch {
                throw .encoderFailed(tool: "ffmpeg", detail: finish(failed: true))
            }
            start = end
        }
    }

    static let blockSamples = 48_000

    /// Ends the input and waits; throws with ffmpeg's message if it failed.
    func close() throws(ExportError) {
        let detail = finish(failed: false)
        guard process.terminationStatus == 0 else { throw .encoderFailed(tool: "ffmpeg", detail: detail) }
    }

    /// Stops ffmpeg at once (a cancelled export); its unfinished output is removed by the caller.
    func abandon() {
        // SIGKILL, not SIGTERM: on SIGTERM ffmpeg first finishes the file, which is thrown away.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = finish(failed: true)
    }

    private func finish(failed: Bool) -> String {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        while !errorReader.isFinished { usleep(1_000) }
        let text = String(decoding: collected.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = text.split(separator: "\n").suffix(3).joined(separator: " | ")
        return lines.isEmpty ? "it exited with status \(process.terminationStatus)" : "it said: \(lines)"
    }
}
