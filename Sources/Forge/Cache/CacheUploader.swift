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
            await withTaskGroup(of: Result<(String, Int), RemoteCacheError>.self) { group in
                var outcome = Outcome()
                var running = 0
                func take(_ result: Result<(String, Int), RemoteCacheError>) {
                    switch result {
                    case .success((let key, let bytes)):
                        outcome.uploaded.append(key)
                        outcome.bytes += bytes
                    case .failure(let error):
                        // A damaged local object stops only its own upload; anything the server says stops them all.
                        if case .localStore = error { break }
                        if outcome.failure == nil { outcome.failure = error }
                        group.cancelAll()
                    }
                }
                for await speech in stream {
                    if outcome.failure != nil || Task.isCancelled { continue }
                    if running >= connections, let result = await group.next() {
                        running -= 1
                        take(result)
                        if outcome.failure != nil { continue }
                    }
                    running += 1
                    group.addTask {
                        do throws(RemoteCacheError) {
                            let bytes = try await cache.upload(
                                audio: speech.audio, events: speech.events, voice: speech.voice)
                            return .success((speech.audio.key, bytes))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                for await result in group { take(result) }
                return outcome
            }
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
