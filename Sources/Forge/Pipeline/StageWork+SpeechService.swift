import Foundation

extension StageWork {
    /// What became of one item sent to a speech service.
    enum ServiceAnswer: Sendable {
        case stored(SpeechJobResult)
        case failed(SpeechServiceFailure)
    }

    /// Speaks, in this process, the jobs whose voices are the recipe's speech services: each
    /// service's requests at most its `concurrency` at once, its limits kept, every answer stored
    /// and recorded as it comes. Returns the jobs left for the worker processes: those of other
    /// engines, and fallbacks of failed items that another engine speaks.
    ///
    /// Throws ``SpeechServiceError`` when a service refuses its key or fails `failuresToStop` items
    /// in a row; what was finished is saved first.
    mutating func speakWithServices(_ jobs: [SpeechJob], waiting: inout [String: [ItemRecord]], align: Bool)
        async throws -> [SpeechJob]
    {
        var local: [SpeechJob] = []
        var pending: [SpeechJob] = []
        for job in jobs {
            if recipe.services[job.voice.engine] == nil { local.append(job) } else { pending.append(job) }
        }
        var services: [String: SpeechService] = [:]
        defer { serviceUsage = services.keys.sorted().compactMap { services[$0]?.usage } }
        while !pending.isEmpty && !stopRequested() {
            let engine = pending[0].voice.engine
            let round = pending.filter { $0.voice.engine == engine }
            pending.removeAll { $0.voice.engine == engine }
            if services[engine] == nil { services[engine] = try await openService(engine, voices: round.map(\.voice)) }
            guard let service = services[engine] else { continue }
            let retries = try await speak(round, with: service, waiting: &waiting, align: align)
            for job in retries {
                if recipe.services[job.voice.engine] == nil { local.append(job) } else { pending.append(job) }
            }
        }
        return local
    }

    /// The service `engine`, its key read (as the command line allowed) and the voices the jobs
    /// ask for checked with it, where its API can say.
    private func openService(_ engine: String, voices: [VoiceSettings]) async throws -> SpeechService {
        guard let settings = recipe.services[engine] else { throw SpeechError.unknownEngine(engine) }
        let service = SpeechService(settings: settings, key: try recipe.serviceKeyGrants.key(for: settings))
        var checked = Set<String>()
        for voice in voices where checked.insert(voice.id).inserted {
            if let problem = await service.voiceProblem(voice) {
                let path = recipe.allVoices.first { $0.voice.engine == engine && $0.voice.id == voice.id }?.path
                throw SpeechServiceError.unknownVoice(
                    file: recipe.file.path, path: path ?? "voice", engine: engine, reason: problem)
            }
        }
        return service
    }

    /// One service's jobs; returns the fallback jobs of the items it failed.
    private mutating func speak(
        _ jobs: [SpeechJob], with service: SpeechService, waiting: inout [String: [ItemRecord]], align: Bool
    ) async throws -> [SpeechJob] {
        let store = store
        var retries: [SpeechJob] = []
        var failedInARow = 0
        var stop: (any Error)?
        await BoundedTasks.run(
            jobs, limit: service.settings.concurrency, cancellation: cancellation,
            perform: { job in await Self.speak(job, with: service, store: store) },
            take: { job, answer in
                do {
                    switch answer {
                    case .stored(let result):
                        failedInARow = 0
                        if let retry = try finish(job, result: result, waiting: &waiting, align: align) {
                            retries.append(retry)
                        }
                    case .failed(.cancelled):
                        return .cancelRest
                    case .failed(.keyRefused(let reason)):
                        stop = SpeechServiceError.keyRefused(engine: service.settings.name, reason: reason)
                        return .cancelRest
                    case .failed(let failure):
                        let error = SpeechError.engineFailed(
                            item: job.itemID, engine: service.settings.name, reason: failure.reason)
                        let result = SpeechJobResult(itemID: job.itemID, error: ErrorReason.message(error))
                        if let retry = try finish(job, result: result, waiting: &waiting, align: align) {
                            retries.append(retry)
                        }
                        failedInARow = failure.isServiceFault ? failedInARow + 1 : 0
                        if failedInARow >= service.settings.failuresToStop {
                            stop = SpeechServiceError.failing(
                                engine: service.settings.name, items: failedInARow, reason: failure.reason)
                            return .cancelRest
                        }
                    }
                    return .goOn
                } catch {
                    stop = error
                    return .cancelRest
                }
            })
        if let stop {
            try save()
            throw stop
        }
        return retries
    }

    /// Sends one job to its service and stores what comes back, as a worker stores its items.
    private static func speak(_ job: SpeechJob, with service: SpeechService, store: ObjectStore) async
        -> ServiceAnswer
    {
        let request = SpeechRequest(itemID: job.itemID, text: job.text, voice: job.voice)
        switch await service.synthesize(request) {
        case .failure(let failure):
            return .failed(failure)
        case .success(let speech):
            let spoken = job.stored(speech, engine: job.voice.engine, engineVersion: job.engineVersion)
            return .stored(SpeechWorker.persist(job, .success(spoken), store: store).result)
        }
    }
}
