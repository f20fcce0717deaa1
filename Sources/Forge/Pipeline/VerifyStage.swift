/// Transcribes the audio back and scores it against the text, once every item is done; chunks
/// another machine verified from the same audio bytes come from the remote cache.
struct VerifyStage: PipelineStage {
    let settings: VerifySettings

    func run(_ input: Void, in context: BuildContext) async throws -> VerificationOutcome {
        context.progress(.phase("verify"))
        let progress = context.progress
        var work = StageWork(context: context)
        let verification = VerificationRun(
            outputDirectory: context.store.root, settings: settings, pauses: context.recipe.exports, language: context.recipe.language)
        let report: VerifyReport
        switch try verification.plan(using: context.manifest) {
        case let .unavailable(unavailable):
            report = unavailable
        case var .ready(plan):
            let (manifest, cancellation, unscreened) = (context.manifest, context.cancellation, plan)
            plan = try await BlockingThreads.run {
                var screened = unscreened
                try verification.screen(&screened, using: manifest, cancellation: cancellation)
                return screened
            }
            let remote = context.speechCache?.remote
            let keys = remote == nil ? [:] : try work.chunkActionKeys(plan)
            if let remote { try await work.downloadChunks(&plan, keys: keys, from: remote, maxWordErrorRate: settings.maxWordErrorRate) }
            let transcribed = plan.work
            let (build, ready) = (context.buildID, plan)
            report = try await BlockingThreads.run {
                var report = try verification.transcribe(ready, using: manifest, build: build, cancellation: cancellation) { chunk in progress(.verified(chunk)) }
                try verification.answerFlags(&report, timelines: ready.timelines, using: manifest)
                return report
            }
            if let remote { try await work.uploadChunks(transcribed, plan: plan, keys: keys, to: remote) }
        }
        if !report.available && settings.required {
            throw PipelineError.verificationUnavailable(reason: report.unavailableReason ?? "unknown")
        }
        return VerificationOutcome(report: report, traffic: work.traffic)
    }
}
