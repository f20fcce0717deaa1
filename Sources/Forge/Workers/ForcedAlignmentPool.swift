import Foundation
import Synchronization

/// Runs forced alignment of many items on `threads` threads, each with its own recognizer
/// (pocketsphinx decoders run in parallel fine, one per thread), and streams the results.
///
/// On ``BlockingThreads``, not Swift tasks: a decode blocks for up to seconds, and the orchestrator's
/// tasks must stay free to read the stream and commit.
enum ForcedAlignmentPool {
    struct Outcome: Sendable {
        var job: ForcedAlignmentJob
        var result: Result<AlignmentDocument, RecognitionError>
        var seconds: Double
    }

    static func run(
        _ jobs: [ForcedAlignmentJob], store: ObjectStore, threads: Int, model: RecognizerModel, language: String,
        cancellation: CancellationFlag
    ) -> AsyncStream<Outcome> {
        let (stream, continuation) = AsyncStream<Outcome>.makeStream()
        let queue = Mutex(jobs[...])
        let identity = ForcedAligner.identity(model: model)
        BlockingThreads.start(
            max(1, min(threads, jobs.count)),
            body: { _ in
                let aligner = Result { () throws(RecognitionError) -> ForcedAligner in
                    try ForcedAligner(model: model, language: language)
                }
                while !cancellation.isCancelled, let job = queue.withLock({ $0.popFirst() }) {
                    let clock = ContinuousClock.now
                    let result = Result { () throws(RecognitionError) -> AlignmentDocument in
                        let aligner = try aligner.get()
                        let audio: DecodedAudio
                        do { audio = try store.decodeAudio(relativePath: job.audioPath) } catch {
                            throw .decoderFailed(error.localizedDescription)
                        }
                        let alignment = try aligner.align(words: job.words, audio: audio)
                        return AlignmentDocument(aligner: identity, durationMs: audio.durationMs, alignment: alignment)
                    }
                    let elapsed = clock.duration(to: .now)
                    continuation.yield(
                        Outcome(
                            job: job, result: result,
                            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                        ))
                }
            }, whenAllFinished: { continuation.finish() })
        return stream
    }
}
