import Foundation

/// A recipe's command engine (an external program speaking ``CommandEngineProtocol``) as a
/// ``SpeechEngine``. One process serves many requests; after a failure the next request starts a
/// fresh one. The engine writes each item's audio to a WAV file in `scratchDirectory`, which is
/// read back and removed.
package final class CommandEngine: SpeechEngine {
    /// Command engines may report word timings per response, but none promises them.
    package static let capabilities: SpeechCapabilities = []

    package let settings: CommandEngineSettings
    /// The engine's name and the version from its hello, e.g. "cli 1.0".
    package let version: String
    package var name: String { settings.name }
    private var process: CommandEngineProcess?
    private let scratchDirectory: URL
    private var requests = 0

    /// Starts the engine's process and reads its hello.
    package init(_ settings: CommandEngineSettings, scratchDirectory: URL = FileManager.default.temporaryDirectory)
        throws(CommandEngineError)
    {
        let process = try CommandEngineProcess(settings)
        self.settings = settings
        self.process = process
        self.version = process.identity
        self.scratchDirectory = scratchDirectory
    }

    /// A command engine takes any voice id; it refuses unknown ones item by item.
    package func suggestionsIfUnknown(_ voice: VoiceSettings) -> [String]? { nil }

    package func synthesize(_ request: SpeechRequest) throws(SpeechError) -> SynthesizedSpeech {
        let running: CommandEngineProcess
        do {
            running = try process ?? CommandEngineProcess(settings)
        } catch {
            throw .engineFailed(item: request.itemID, engine: name, reason: ErrorReason.message(error))
        }
        process = running
        requests += 1
        let output = scratchDirectory.appendingPathComponent("\(getpid()).\(requests).engine.wav")
        defer { unlink(output.path) }
        let response: CommandEngineProtocol.Response
        do {
            response = try running.speak(
                CommandEngineProtocol.Request(
                    id: request.itemID, text: request.text, voice: request.voice.id, options: request.voice.options,
                    output: output.path))
        } catch {
            // A dead or confused engine is started afresh for the next item.
            process = nil
            throw .engineFailed(item: request.itemID, engine: name, reason: ErrorReason.message(error))
        }
        if let error = response.error { throw .engineFailed(item: request.itemID, engine: name, reason: error) }
        let decoded: DecodedAudio
        do {
            decoded = try SoundFile.decode(fileAt: URL(fileURLWithPath: response.audio ?? output.path))
        } catch {
            throw .engineFailed(
                item: request.itemID, engine: name, reason: "its audio could not be read: \(ErrorReason.message(error))"
            )
        }
        guard !decoded.samples.isEmpty else { throw .noAudio(item: request.itemID) }
        let durationMs = Int((Int64(decoded.samples.count) * 1000) / Int64(max(decoded.sampleRate, 1)))
        let events = Self.events(
            from: response.words ?? [], textLength: request.text.unicodeScalars.count, durationMs: durationMs)
        return SynthesizedSpeech(
            samples: decoded.samples, sampleRate: decoded.sampleRate, events: events, wordsTimed: !events.isEmpty,
            phonemes: response.phonemes)
    }

    /// The engine's word timings as synthesizer events (a word start each, and the end of the last word).
    static func events(from words: [CommandEngineProtocol.WordTime], textLength: Int, durationMs: Int)
        -> [SynthesisEvent]
    {
        let valid = words.filter {
            $0.start >= 0 && $0.end > $0.start && $0.end <= textLength && $0.startMs >= 0 && $0.startMs <= durationMs
        }
        guard !valid.isEmpty else { return [] }
        var events = valid.map {
            SynthesisEvent(kind: .word, textPosition: $0.start, length: $0.end - $0.start, audioMs: $0.startMs)
        }
        if let last = valid.last {
            events.append(
                SynthesisEvent(
                    kind: .end, textPosition: last.end, length: 0,
                    audioMs: min(max(last.endMs, last.startMs), durationMs)))
        }
        return events
    }
}
