import Foundation
import Synchronization

/// ffmpeg (Debian's `ffmpeg`), run as an external program to encode AAC (M4B) and MP3 at ACX's
/// settings: raw 16-bit mono PCM is streamed to its standard input, so no more than the chapter
/// in hand is ever held in memory, and ffmpeg writes the file. Its arguments are Forge's own;
/// paths are ones Forge created inside the output directory.
final class FFmpegEncoder {
    /// The ffmpeg program: `FORGE_FFMPEG`, else the first `ffmpeg` on the PATH.
    static func locate() throws(ExportError) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["FORGE_FFMPEG"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw .toolMissing(tool: "ffmpeg", detail: "FORGE_FFMPEG names \(path), which is not an executable")
            }
            return URL(fileURLWithPath: path)
        }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw .toolMissing(tool: "ffmpeg", detail: "no ffmpeg on the PATH")
    }

    private let child: ChildProcess

    /// Starts ffmpeg reading raw PCM (`sampleRate` Hz, mono, s16le) from standard input, with
    /// `arguments` after the input (more inputs, maps, codec, output).
    convenience init(sampleRate: Int, arguments: [String]) throws(ExportError) {
        try self.init(input: ["-f", "s16le", "-ar", String(sampleRate), "-ac", "1"], arguments: arguments)
    }

    /// Starts ffmpeg reading standard input as `input` describes it, with `arguments` after the input.
    init(input: [String], arguments: [String]) throws(ExportError) {
        let executable = try Self.locate()
        let fixed = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + input + ["-i", "pipe:0"]
        do {
            // Out of Forge's process group: a Ctrl-C reaching ffmpeg first made it exit 255 mid-chapter,
            // reported as a failed encode (exit 3) instead of a stop; Forge kills it when it stops.
            child = try ChildProcess.startWaiting(
                executable: executable.path, arguments: fixed + arguments, errorOutput: .keep(label: "ffmpeg"),
                ownProcessGroup: true,
                onLine: { _ in })
        } catch {
            throw .toolMissing(tool: "ffmpeg", detail: error.localizedDescription)
        }
    }

    /// Sends samples to ffmpeg, a block (about a second of audio) at a time: ffmpeg reads as fast
    /// as it encodes, so a chapter takes seconds, and a stop is honoured between blocks.
    func write(_ samples: ArraySlice<Int16>, cancellation: CancellationFlag? = nil) throws(ExportError) {
        var start = samples.startIndex
        while start < samples.endIndex {
            if cancellation?.isCancelled == true { throw .cancelled(written: 0) }
            let end = min(samples.endIndex, start + Self.blockSamples)
            let bytes = samples[start..<end].withUnsafeBytes { Array($0) }
            guard child.writeWaiting(bytes) else { throw .encoderFailed(tool: "ffmpeg", detail: finish()) }
            start = end
        }
    }

    static let blockSamples = 48_000

    /// The first line of `ffmpeg -version` (its version and build), asked once: encoded chapters
    /// are keyed by it, so another ffmpeg makes them again.
    static func identity() throws(ExportError) -> String {
        if let known = knownIdentity.withLock({ $0 }) { return known }
        let executable = try locate()
        let firstLine = Mutex<String?>(nil)
        let ended: ChildProcess.Termination
        do {
            let child = try ChildProcess.startWaiting(
                executable: executable.path, arguments: ["-hide_banner", "-version"],
                errorOutput: .keep(label: "ffmpeg"),
                onLine: { line in firstLine.withLock { $0 = $0 ?? String(decoding: line, as: UTF8.self) } })
            child.finishInputWaiting()
            ended = child.exitedWaiting()
        } catch {
            throw .toolMissing(tool: "ffmpeg", detail: error.localizedDescription)
        }
        guard ended.succeeded, let line = firstLine.withLock({ $0 }) else {
            throw .toolMissing(tool: "ffmpeg", detail: "`\(executable.path) -version` did not answer")
        }
        knownIdentity.withLock { $0 = line }
        return line
    }

    private static let knownIdentity = Mutex<String?>(nil)

    /// The sample rate of `file`'s first audio stream, as ffprobe (beside ffmpeg) reads it; nil when it cannot.
    static func sampleRate(of file: URL) -> Int? {
        guard let text = probe(file, entry: "sample_rate"), let rate = Int(text), (8_000...192_000).contains(rate)
        else { return nil }
        return rate
    }

    /// The codec of `file`'s first audio stream (`mp3`, `aac`, …), as ffprobe reads it; nil when it cannot.
    static func codec(of file: URL) -> String? { probe(file, entry: "codec_name") }

    /// One field of `file`'s first audio stream, as ffprobe (beside ffmpeg) reads it from its headers.
    private static func probe(_ file: URL, entry: String) -> String? {
        guard let ffmpeg = try? locate() else { return nil }
        let probe = ffmpeg.deletingLastPathComponent().appendingPathComponent("ffprobe")
        let answer = Mutex<String?>(nil)
        guard
            let child = try? ChildProcess.startWaiting(
                executable: probe.path,
                arguments: [
                    "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=\(entry)", "-of", "csv=p=0",
                    file.path,
                ],
                errorOutput: .keep(label: "ffprobe"),
                onLine: { line in answer.withLock { $0 = $0 ?? String(decoding: line, as: UTF8.self) } })
        else { return nil }
        child.finishInputWaiting()
        guard child.exitedWaiting().succeeded, let text = answer.withLock({ $0 })?.trimmingCharacters(in: .whitespaces),
            !text.isEmpty
        else { return nil }
        return text
    }

    /// How long `file` plays, in microseconds, decoded as a player decodes it (its encoder delay
    /// and padding dropped) at `sampleRate` Hz mono: ffmpeg decodes it all (about 2,000x real
    /// time for MP3) and reports where its output ended. Throws `failure(ffmpeg's message)`.
    static func decodedMicroseconds(of file: URL, sampleRate: Int, failure: (String) -> Error) throws -> Int64 {
        let executable = try locate()
        let ended = Mutex<Int64?>(nil)
        let child: ChildProcess
        do {
            child = try ChildProcess.startWaiting(
                executable: executable.path,
                arguments: [
                    "-hide_banner", "-nostdin", "-loglevel", "error", "-i", file.path, "-map", "0:a:0",
                    "-af", "aformat=sample_fmts=s16:channel_layouts=mono,aresample=\(sampleRate)", "-c:a", "pcm_s16le",
                    "-f", "null", "-",
                    "-progress", "pipe:1",
                ],
                errorOutput: .keep(label: "ffmpeg"),
                onLine: { line in
                    let text = String(decoding: line, as: UTF8.self)
                    if text.hasPrefix("out_time_us="), let value = Int64(text.dropFirst("out_time_us=".count)) {
                        ended.withLock { $0 = value }
                    }
                })
        } catch {
            throw ExportError.toolMissing(tool: "ffmpeg", detail: error.localizedDescription)
        }
        child.finishInputWaiting()
        let termination = child.exitedWaiting()
        guard termination.succeeded, let microseconds = ended.withLock({ $0 }) else {
            throw failure(child.errorTail(waitingUpTo: 1) ?? "it did not say how long the audio is")
        }
        return microseconds
    }

    /// Runs ffmpeg with `arguments` (its own inputs and output; nothing on standard input) and
    /// waits. It runs in forge's process group, so the Ctrl-C that ends forge ends it too, and
    /// a stop that ends forge at once kills it first (``StopCleanup``). Throws
    /// `failure(ffmpeg's message)` when it fails.
    static func run(_ arguments: [String], failure: (String) -> Error) throws {
        let executable = try locate()
        // A stop that ends forge at once ends this ffmpeg first, or it goes on writing its
        // output after forge is gone (a SIGTERM reaches forge alone).
        let (child, ended) = try StopCleanup.starting(
            {
                do {
                    return try ChildProcess.startWaiting(
                        executable: executable.path,
                        arguments: ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + arguments,
                        errorOutput: .keep(label: "ffmpeg"), onLine: { _ in })
                } catch {
                    throw ExportError.toolMissing(tool: "ffmpeg", detail: error.localizedDescription)
                }
            },
            removal: { child in
                child.send(.kill)
                _ = child.exitedWaiting()
            },
            whileRunning: { child in
                child.finishInputWaiting()
                return (child, child.exitedWaiting())
            })
        guard ended.succeeded else {
            throw failure(
                child.errorTail(waitingUpTo: 1)
                    ?? (ended.signalled
                        ? "it was killed by signal \(ended.code ?? 0)" : "it exited with status \(ended.code ?? 0)"))
        }
    }

    /// Ends the input and waits; throws with ffmpeg's message if it failed.
    func close() throws(ExportError) {
        let (ended, detail) = finishing()
        guard ended.succeeded else { throw .encoderFailed(tool: "ffmpeg", detail: detail) }
    }

    /// Stops ffmpeg at once (a cancelled export); its unfinished output is removed by the caller.
    func abandon() {
        // SIGKILL, not SIGTERM: on SIGTERM ffmpeg first finishes the file, which is thrown away.
        child.send(.kill)
        _ = finish()
    }

    private func finish() -> String { finishing().detail }

    private func finishing() -> (ended: ChildProcess.Termination, detail: String) {
        child.finishInputWaiting()
        let ended = child.exitedWaiting()
        let status =
            ended.signalled ? "it was killed by signal \(ended.code ?? 0)" : "it exited with status \(ended.code ?? 0)"
        return (ended, child.errorTail(waitingUpTo: 0) ?? status)
    }
}
