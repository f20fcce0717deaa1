import Foundation
import Synchronization

/// Uploads items' speech to the remote cache in the background, a few at a time, so synthesis
/// never waits for the network. The first failure that says the cache cannot take uploads
/// (unreachable, 5xx, refused) stops the rest; what was uploaded is returned by ``finish()``.
package final class CacheUploader: Sendable {
    /// What the uploads achieved.
    package struct Outcome: Sendable {
        /// Audio keys whose blobs and entry the cache now holds.
        package var uploaded: [String] = []
        package var bytes = 0
        /// Why uploading stopped early, if it did.
        package var failure: RemoteCacheError?
    }

    private let continuation: AsyncStream<Manifest.SharedSpeech>.Continuation
    private let worker: Task<Outcome, Never>
    private let queued = Mutex(Set<String>())

    package init(cache: SpeechCache, connections: Int = RemoteCache.connections) {
        let (stream, continuation) = AsyncStream<Manifest.SharedSpeech>.makeStream()
        self.continuation = continuation
        worker = Task {
            var outcome = Outcome()
            await BoundedTasks.run(
                arriving: stream, limit: connections,
                perform: { speech -> Result<Int, RemoteCacheError> in
                    do throws(RemoteCacheError) {
                        return .success(
                            try await cache.upload(audio: speech.audio, events: speech.events, voice: speech.voice))
                    } catch {
                        return .failure(error)
                    }
                },
                take: { speech, result in
                    switch result {
                    case .success(let bytes):
                        outcome.uploaded.append(speech.audio.key)
                        outcome.bytes += bytes
                    case .failure(.localStore):
                        // A damaged local object stops only its own upload; anything the server says stops them all.
                        break
                    case .failure(let error):
                        outcome.failure = outcome.failure ?? error
                        return .cancelRest
                    }
                    return .goOn
                })
            return outcome
        }
    }

    /// Queues an item's speech for upload (once per audio key); returns at once.
    package func enqueue(_ speech: Manifest.SharedSpeech) {
        guard queued.withLock({ $0.insert(speech.audio.key).inserted }) else { return }
        continuation.yield(speech)
    }

    /// Waits for every queued upload and returns what was done.
    package func finish() async -> Outcome {
        continuation.finish()
        return await worker.value
    }

    /// Stops uploading now (uploads in flight are abandoned: the server keeps none of a cut-short
    /// `PUT`, and no entry is written before its blobs); returns what finished.
    package func cancel() async -> Outcome {
        abort()
        return await worker.value
    }

    /// Stops uploading now without waiting (``finish()`` then returns what had finished).
    package func abort() {
        continuation.finish()
        worker.cancel()
    }
}
