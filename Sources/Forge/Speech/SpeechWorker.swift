import Foundation

/// The loop a worker process runs: read ``SpeechJob`` lines from standard input, speak each
/// with espeak-ng, store the audio and events objects, answer with a ``SpeechJobResult`` line.
///
/// Workers write objects only, never the manifest. A worker ignores SIGINT (Ctrl-C reaches the
/// whole process group) so it finishes the item in hand; it exits when its input closes.
public struct SpeechWorker {
    public let store: ObjectStore
    /// Items whose text contains this string fail on purpose (`FORGE_FAULT_SPEAK`), for tests of failure isolation.
    public let faultTrigger: String?

    public init(store: ObjectStore, faultTrigger: String? = ProcessInfo.processInfo.environment["FORGE_FAULT_SPEAK"]) {
        self.store = store
        self.faultTrigger = faultTrigger.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Runs until standard input closes; returns the process exit status.
    public func run() -> Int32 {
        signal(SIGINT, SIG_IGN)
        let engine: EspeakEngine
        do {
            engine = try EspeakEngine()
        } catch {
            FileHandle.standardError.write(Data("forge worker: \(error.localizedDescription)\n".utf8))
            return 3
        }
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            let result: SpeechJobResult
            do {
                let job = try decoder.decode(SpeechJob.self, from: Data(line.utf8))
                result = speak(job, engine: engine)
            } catch {
                result = SpeechJobResult(itemID: "?", error: "malformed job: \(error)")
            }
            guard var data = try? encoder.encode(result) else { continue }
            data.append(UInt8(ascii: "\n"))
            do {
                try FileHandle.standardOutput.write(contentsOf: data)
            } catch {
                return 0  // the orchestrator is gone
            }
        }
        return 0
    }

    /// Speaks one job and stores its objects.
    public func speak(_ job: SpeechJob, engine: EspeakEngine) -> SpeechJobResult {
        do {
            if let faultTrigger, job.text.contains(faultTrigger) { throw SpeechError.injectedFault(item: job.itemID) }
            let speech = try engine.synthesize(job.text, voice: job.voice, itemID: job.itemID)
            let samples = Resampler.resample(speech.samples, from: speech.sampleRate, to: job.audio.sampleRate)
            let durationMs = Int((Int64(samples.count) * 1000) / Int64(job.audio.sampleRate))
            let document = SpeechEventsDocument(
                engine: EspeakEngine.name, engineVersion: engine.version, audioKey: job.audioKey,
                durationMs: durationMs, sampleRate: job.audio.sampleRate, events: speech.events)
            // Events first: an audio object in the store always has its events beside it.
            let events = try store.store(
                key: job.eventsKey, fileExtension: "json", role: .events, mimeType: "application/json", data: document.encoded())
            let audio = try store.store(
                key: job.audioKey, fileExtension: job.audio.format.fileExtension, role: .audio,
                mimeType: job.audio.format.mimeType, durationMs: durationMs, sampleRate: job.audio.sampleRate
            ) { descriptor, path in
                try AudioEncoder.encode(samples, sampleRate: job.audio.sampleRate, format: job.audio.format, toDescriptor: descriptor, path: path)
            }
            return SpeechJobResult(itemID: job.itemID, audio: audio, events: events, document: document)
        } catch {
            return SpeechJobResult(itemID: job.itemID, error: (error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
    }
}
