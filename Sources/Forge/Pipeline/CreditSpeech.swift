import Foundation

/// The opening and closing credits of the M4B and the ACX set, spoken by a synthesis worker as every item is: each
/// credit's audio is an object in the store, keyed as an item's audio is (its text, the credit
/// voice, the audio settings, espeak-ng's version), recorded in the manifest, and found there by
/// every export after — a credit is spoken once, never in the exporting process.
package struct CreditSpeech: Sendable {
    package var outputDirectory: URL
    /// How to start a synthesis worker (`forge worker`); its store is set to `outputDirectory`.
    package var launch: WorkerPool.Launch
    package var cancellation: CancellationFlag?

    package init(outputDirectory: URL, launch: WorkerPool.Launch, cancellation: CancellationFlag? = nil) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.launch = launch.storing(at: outputDirectory.standardizedFileURL.path)
        self.cancellation = cancellation
    }

    /// The audio every credit is spoken in: espeak-ng's own rate, WAV (mastered and encoded by the export).
    static let audio = AudioSettings()

    /// `settings` with ``ExportSettings/creditAudio`` naming each credit's audio object, speaking
    /// the credits the store does not hold yet. Settings without credits, or without the M4B and
    /// the ACX set, come back as they are. The caller holds the output directory's lock.
    package func prepare(_ settings: ExportSettings, manifest: Manifest) async throws -> ExportSettings {
        let credits = BookCredits(settings)
        let texts = credits.texts
        guard settings.formats.contains(.acx) || settings.formats.contains(.m4b), !texts.isEmpty else {
            return settings
        }
        let voice = settings.creditVoice ?? VoiceSettings(id: VoiceSettings.defaultID(forLanguage: settings.language))
        let version: String
        do {
            version = try SpeechEngines(commands: [:]).engine(named: SpeechEngines.builtInName).version
        } catch let error as SpeechError {
            throw PipelineError.engineUnavailable(ErrorReason.message(error))
        }
        var jobs: [SpeechJob] = []
        var paths: [String: String] = [:]
        for (index, text) in texts.enumerated() {
            let audioKey = ObjectKey.audio(
                text: text, voice: voice, audio: Self.audio, engineVersion: version, phonemeInput: false,
                resampler: Recipe.resampler(voice: voice, audio: Self.audio))
            jobs.append(
                SpeechJob(
                    itemID: index == 0 && credits.opening != nil ? "opening-credit" : "closing-credit",
                    text: text, voice: voice,
                    audio: Self.audio, audioKey: audioKey, eventsKey: ObjectKey.events(audioKey: audioKey),
                    engineVersion: version))
        }
        let store = ObjectStore(root: outputDirectory)
        let known = try manifest.objects(withKeys: jobs.map(\.audioKey))
        var missing: [SpeechJob] = []
        for (job, text) in zip(jobs, texts) {
            if let object = known[job.audioKey], store.contains(relativePath: object.path) {
                paths[text] = object.path
            } else {
                missing.append(job)
            }
        }
        for (job, objects) in try await speak(missing) {
            try manifest.recordObjects(objects)
            if let audio = objects.first(where: { $0.role == .audio }),
                let text = zip(jobs, texts).first(where: { $0.0.audioKey == job.audioKey })?.1
            {
                paths[text] = audio.path
            }
        }
        var prepared = settings
        prepared.creditAudio = paths
        return prepared
    }

    /// Speaks `jobs` with one worker; each job's objects, as the worker stored them.
    private func speak(_ jobs: [SpeechJob]) async throws -> [(SpeechJob, [StoredObject])] {
        guard !jobs.isEmpty else { return [] }
        let pool = WorkerPool(launch: launch)
        var results: [(SpeechJob, [StoredObject])] = []
        do {
            try await pool.start(0)
            var pending = jobs[...]
            var current = pending.popFirst()
            if let job = current, !(await pool.send(job, to: 0)) {
                throw SpeechError.workerUnavailable("the synthesis worker for the credits took no work")
            }
            for await message in pool.messages {
                if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                switch message {
                case .started:
                    continue
                case .result(_, let result):
                    guard let job = current else { continue }
                    if let error = result.error { throw SpeechError.synthesisFailed(item: job.itemID, reason: error) }
                    results.append((job, [result.audio, result.events].compactMap { $0 }))
                    current = pending.popFirst()
                    if let next = current, !(await pool.send(next, to: 0)) {
                        throw SpeechError.workerUnavailable("the synthesis worker for the credits took no more work")
                    }
                case .exited(_, let detail):
                    if let job = current { throw SpeechError.workerCrashed(item: job.itemID, detail: detail) }
                }
                if current == nil { break }
            }
            await pool.shutdown()
        } catch {
            await pool.shutdown()
            throw error
        }
        return results
    }
}
