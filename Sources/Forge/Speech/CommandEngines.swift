import Foundation

/// The command engines a worker has started, one process per engine, kept for the worker's life.
final class CommandEngines {
    private var running: [String: CommandEngine] = [:]

    /// Speaks a job with its command engine: the engine writes a WAV file, which is read,
    /// resampled to the recipe's rate and returned with the engine's word timings as events.
    func synthesize(
        _ job: SpeechJob, settings: CommandEngineSettings, temporaryDirectory: URL
    ) throws(SpeechError) -> (samples: [Int16], document: SpeechEventsDocument) {
        let engine: CommandEngine
        do {
            if let existing = running[settings.name] {
                engine = existing
            } else {
                engine = try CommandEngine(settings)
                running[settings.name] = engine
            }
        } catch {
            throw .engineFailed(item: job.itemID, engine: settings.name, reason: error.localizedDescription)
        }
        let output = temporaryDirectory.appendingPathComponent("\(job.audioKey).\(getpid()).engine.wav")
        defer { unlink(output.path) }
        let response: CommandEngineProtocol.Response
        do {
            response = try engine.speak(
                CommandEngineProtocol.Request(id: job.itemID, text: job.text, voice: job.voice.id, options: job.voice.options, output: output.path))
        } catch {
            // A dead or confused engine is started afresh for the next item.
            running[settings.name] = nil
            throw .engineFailed(item: job.itemID, engine: settings.name, reason: error.localizedDescription)
        }
        if let error = response.error { throw .engineFailed(item: job.itemID, engine: settings.name, reason: error) }
        let audioURL = URL(fileURLWithPath: response.audio ?? output.path)
        let decoded: DecodedAudio
        do {
            decoded = try SoundFile.decode(fileAt: audioURL)
        } catch {
            throw .engineFailed(item: job.itemID, engine: settings.name, reason: "its audio could not be read: \(error.localizedDescription)")
        }
        guard !decoded.samples.isEmpty else { throw .noAudio(item: job.itemID) }
        let samples = Resampler.resample(decoded.samples, from: decoded.sampleRate, to: job.audio.sampleRate)
        let durationMs = Int((Int64(samples.count) * 1000) / Int64(job.audio.sampleRate))
        let events = Self.events(from: response.words ?? [], textLength: job.text.unicodeScalars.count, durationMs: durationMs)
        let document = SpeechEventsDocument(
            engine: settings.name, engineVersion: job.engineVersion, audioKey: job.audioKey, durationMs: durationMs,
            sampleRate: job.audio.sampleRate, events: events, wordsTimed: !events.isEmpty, phonemes: response.phonemes)
        return (samples, document)
    }

    /// The engine's word timings as synthesizer events (a word start each, and the end of the last word).
    static func events(from words: [CommandEngineProtocol.WordTime], textLength: Int, durationMs: Int) -> [SynthesisEvent] {
        let valid = words.filter { $0.start >= 0 && $0.end > $0.start && $0.end <= textLength && $0.startMs >= 0 && $0.startMs <= durationMs }
        guard !valid.isEmpty else { return [] }
        var events = valid.map { SynthesisEvent(kind: .word, textPosition: $0.start, length: $0.end - $0.start, audioMs: $0.startMs) }
        if let last = valid.last { events.append(SynthesisEvent(kind: .end, textPosition: last.end, length: 0, audioMs: min(max(last.endMs, last.startMs), durationMs))) }
        return events
    }
}
