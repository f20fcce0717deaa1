import Foundation
import Synchronization

/// Runs forced alignment of many items on `threads` threads and streams the results.
///
/// Each item gets a decoder of its own, with a dictionary of the item's words only: a
/// pocketsphinx decoder's results depend on what it decoded before, so a decoder kept for the
/// next item would make an item's alignment depend on the scheduling. The CMU dictionary is read
/// once; a decoder with a few dozen words starts in milliseconds.
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
        let dictionary = Mutex<Result<CMUDictionary, RecognitionError>?>(nil)
        BlockingThreads.start(
            max(1, min(threads, jobs.count)),
            body: { thread in
                let pronouncer = Pronouncer(language: language)
                let dictionaryFile = store.temporaryDirectory.appendingPathComponent(
                    "align-\(getpid())-\(thread).dict")
                defer { unlink(dictionaryFile.path) }
                while !cancellation.isCancelled, let job = queue.withLock({ $0.popFirst() }) {
                    let clock = ContinuousClock.now
                    let result = Result { () throws(RecognitionError) -> AlignmentDocument in
                        let loaded = dictionary.withLock { loaded in
                            if loaded == nil {
                                loaded = Result { () throws(RecognitionError) -> CMUDictionary in
                                    try CMUDictionary(contentsOf: model.dictionary)
                                }
                            }
                            return loaded!
                        }
                        let cmu = try loaded.get()
                        let audio: DecodedAudio
                        do { audio = try store.decodeAudio(relativePath: job.audioPath) } catch {
                            throw .decoderFailed(error.localizedDescription)
                        }
                        let aligner = try ForcedAligner(
                            model: itemModel(
                                model, words: job.words, from: cmu, pronouncer: pronouncer, file: dictionaryFile),
                            language: language)
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

    /// `model` with a dictionary of `words` only, written to `file`.
    private static func itemModel(
        _ model: RecognizerModel, words: [WordToken], from dictionary: CMUDictionary, pronouncer: Pronouncer,
        file: URL
    ) throws(RecognitionError) -> RecognizerModel {
        // A lexicon's phonemes ("[[…]]") are added by the aligner under keys of their own.
        let spelled = words.map(\.text).filter { !$0.hasPrefix("[[") }
        let text = PronouncingDictionary(words: spelled, from: dictionary, pronouncer: pronouncer).text
        do { try Data(text.utf8).write(to: file) } catch {
            throw .decoderFailed("could not write the dictionary \(file.path): \(error.localizedDescription)")
        }
        var itemModel = model
        itemModel.dictionary = file
        return itemModel
    }
}
