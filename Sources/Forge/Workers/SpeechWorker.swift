import Foundation
import Synchronization

/// The loop a worker process runs: read ``SpeechJob`` lines from standard input, speak each
/// with espeak-ng, store the audio and events objects, answer with a ``SpeechJobResult`` line.
///
/// Before speaking an item the worker writes a ``SpeechWorkerNotice``, so that if the engine
/// crashes the process, the orchestrator knows which item did it.
///
/// Workers write objects only, never the manifest. A worker ignores SIGINT (Ctrl-C reaches the
/// whole process group) so it finishes the item in hand; it exits when its input closes.
package struct SpeechWorker {
    package let store: ObjectStore
    /// Items whose text contains this string fail on purpose (`FORGE_FAULT_SPEAK`), for tests of failure isolation.
    package let faultTrigger: String?
    /// Items whose text contains this string crash the worker process (`FORGE_FAULT_CRASH`), for tests of crash isolation.
    package let crashTrigger: String?

    /// Serializes lines written by the synthesis thread and the persistence queue.
    private static let outputLock = Mutex(())

    package init(
        store: ObjectStore,
        faultTrigger: String? = TestHook.value("FORGE_FAULT_SPEAK"),
        crashTrigger: String? = TestHook.value("FORGE_FAULT_CRASH")
    ) {
        self.store = store
        self.faultTrigger = faultTrigger.flatMap { $0.isEmpty ? nil : $0 }
        self.crashTrigger = crashTrigger.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Starts espeak-ng for this process (a failure is reported by ``run()``). Called first thing
    /// in a worker process, while it has one thread: espeak-ng forks the process its speakers come
    /// from when it starts, and what that process holds, each speaker's rewind walks.
    package static func startBuiltInEngine() {
        // Set first: the processes espeak-ng's start forks inherit them.
        ignoreSignals()
        _ = try? EspeakEngine()
    }

    private static func ignoreSignals() {
        signal(SIGINT, SIG_IGN)
        // Over a file-size limit a write must fail with EFBIG, failing one item, not kill the worker.
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Runs until standard input closes; returns the process exit status.
    ///
    /// Synthesis runs on this thread; encoding, hashing, writing and fsyncing each item's objects
    /// run on a serial queue, so the next item is being spoken while the last one is persisted.
    package func run() -> Int32 {
        Self.ignoreSignals()
        let engines = SpeechEngines(scratchDirectory: store.temporaryDirectory)
        do {
            // The built-in engine is started before the first job, so a broken installation fails the worker, not every item.
            _ = try engines.engine(named: SpeechEngines.builtInName)
        } catch {
            FileHandle.standardError.write(Data("forge worker: \(ErrorReason.message(error))\n".utf8))
            return 3
        }
        let persistence = DispatchQueue(label: "forge.worker.persist")
        var jobs = 0
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            let job: SpeechJob
            do {
                job = try SpeechJob.decode(line: Array(line.utf8))
            } catch {
                let reply = SpeechJobResult(itemID: "?", error: "malformed job: \(error)")
                persistence.async { Self.send(reply) }
                continue
            }
            jobs += 1
            Self.send(SpeechWorkerNotice(started: job.itemID).line)
            let spoken = synthesize(job, engines: engines)
            persistence.async { [store] in
                let (result, documentJSON) = Self.persist(job, spoken, store: store)
                Self.send(result, documentJSON: documentJSON)
            }
        }
        persistence.sync {}
        ForgeLog.info(
            "worker \(getpid()): \(jobs) jobs, \(EspeakEngine.synthesisProcessesStarted) espeak-ng synthesis processes, \(EspeakEngine.synthesisCheckpointsTaken) memory checkpoints"
        )
        EspeakEngine.finish()
        return 0
    }

    /// Writes one answer line; the orchestrator reads them in order.
    private static func send(_ result: SpeechJobResult, documentJSON: Data? = nil) {
        send(result.line(documentJSON: documentJSON))
    }

    private static func send(_ line: Data?) {
        guard let line else { return }
        // If the orchestrator is gone the write fails; the loop then ends when standard input closes.
        outputLock.withLock { _ in try? FileHandle.standardOutput.write(contentsOf: line) }
    }

    /// Speaks one job and stores its objects.
    package func speak(_ job: SpeechJob, engines: SpeechEngines) -> SpeechJobResult {
        Self.persist(job, synthesize(job, engines: engines), store: store).result
    }

    /// Synthesizes a job's text with the engine its voice names, at the recipe's sample rate, with its events document.
    func synthesize(_ job: SpeechJob, engines: SpeechEngines) -> Result<
        (samples: [Int16], document: SpeechEventsDocument), SpeechError
    > {
        do throws(SpeechError) {
            if let faultTrigger, job.text.contains(faultTrigger) { throw .injectedFault(item: job.itemID) }
            if let crashTrigger, job.text.contains(crashTrigger) { abort() }
            let engine: any SpeechEngine
            do {
                engine = try engines.engine(named: job.voice.engine, command: job.commandEngine)
            } catch let error as SpeechError {
                throw error
            } catch {
                throw .engineFailed(item: job.itemID, engine: job.voice.engine, reason: ErrorReason.message(error))
            }
            let speech = try engine.synthesize(
                SpeechRequest(itemID: job.itemID, text: job.text, voice: job.voice, phonemeInput: job.phonemeInput))
            // The version the job's keys were made with (the build asked the engine before any job).
            return .success(
                job.stored(
                    speech, engine: engine.name,
                    engineVersion: job.engineVersion.isEmpty ? engine.version : job.engineVersion))
        } catch {
            return .failure(error)
        }
    }

    /// Encodes and stores a synthesized job's audio and events objects; returns the answer and the
    /// events object's bytes, which the answer carries as they are.
    static func persist(
        _ job: SpeechJob, _ spoken: Result<(samples: [Int16], document: SpeechEventsDocument), SpeechError>,
        store: ObjectStore
    ) -> (result: SpeechJobResult, documentJSON: Data?) {
        do {
            let (samples, document) = try spoken.get()
            let documentJSON = document.encoded()
            // Events first: an audio object in the store always has its events beside it.
            let events = try store.store(
                key: job.eventsKey, fileExtension: "json", role: .events, mimeType: "application/json",
                data: documentJSON)
            let encoded = try SoundFile.encode(samples, sampleRate: job.audio.sampleRate, format: job.audio.format)
            let audio = try store.store(
                key: job.audioKey, fileExtension: job.audio.format.fileExtension, role: .audio,
                mimeType: job.audio.format.mimeType, data: encoded, durationMs: document.durationMs,
                sampleRate: job.audio.sampleRate,
                // Lossless audio decodes to exactly these samples; lossy codecs may pad, so their length is read when needed.
                frames: job.audio.format.isLossless ? samples.count : nil)
            return (SpeechJobResult(itemID: job.itemID, audio: audio, events: events, document: document), documentJSON)
        } catch {
            return (SpeechJobResult(itemID: job.itemID, error: ErrorReason.message(error)), nil)
        }
    }
}
