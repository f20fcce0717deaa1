import Foundation
import Synchronization

/// Encodes a narration's pieces as FLAC objects on threads of its own while the caller reads the
/// next pieces from the recording: reading a FLAC recording is the smaller part of the work and
/// encoding the rest, so the cut, one core's work, keeps both busy.
///
/// Pieces wait in a queue at most `lookahead` long (each holds its samples). ``finish()`` waits
/// for the last and returns every piece's object by its index; the first failure stops the rest.
final class NarrationPieceWriter: Sendable {
    struct Piece: Sendable {
        var index: Int
        var key: String
        var samples: [Int16]
    }

    private let store: ObjectStore
    private let sampleRate: Int
    private let threads: Int
    private let queue = Mutex<(pieces: [Piece], closed: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore
    private let finished = DispatchSemaphore(value: 0)
    private let stored = Mutex<[Int: StoredObject]>([:])
    private let failure = Mutex<(any Error)?>(nil)
    /// How many bytes of samples a thread encodes between handing freed memory back.
    private static let bytesBetweenReleases = 16 << 20

    init(store: ObjectStore, sampleRate: Int, threads: Int = 2, lookahead: Int = 8) {
        self.store = store
        self.sampleRate = sampleRate
        self.threads = max(1, threads)
        room = DispatchSemaphore(value: max(1, lookahead))
        BlockingThreads.start(
            self.threads, body: { [self] _ in work() }, whenAllFinished: { [finished] in finished.signal() })
    }

    /// Queues `piece`, waiting while the queue is full; throws the first failure so far.
    func add(_ piece: Piece) throws {
        room.wait()
        if let error = failure.withLock({ $0 }) {
            room.signal()
            throw error
        }
        queue.withLock { $0.pieces.append(piece) }
        available.signal()
    }

    /// Lets the threads end once the queue is empty (again: nothing). Call on every way out.
    func close() {
        let closing = queue.withLock { queue in
            defer { queue.closed = true }
            return !queue.closed
        }
        if closing { for _ in 0..<threads { available.signal() } }
    }

    /// Waits for every queued piece; each piece's object by its index, or the first failure.
    func finish() throws -> [Int: StoredObject] {
        close()
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return stored.withLock { $0 }
    }

    private func work() {
        var freed = 0
        while true {
            available.wait()
            guard let piece = queue.withLock({ $0.pieces.isEmpty ? nil : $0.pieces.removeFirst() }) else { return }
            defer { room.signal() }
            guard failure.withLock({ $0 == nil }) else { continue }
            do {
                let durationMs = NarrationImport.milliseconds(piece.samples.count, rate: sampleRate)
                let object = try store.store(
                    key: piece.key, fileExtension: "flac", role: .audio,
                    mimeType: AudioSettings.Format.flac.mimeType,
                    data: try SoundFile.encode(
                        piece.samples.isEmpty ? [0] : piece.samples, sampleRate: sampleRate, format: .flac),
                    durationMs: durationMs, sampleRate: sampleRate)
                stored.withLock { $0[piece.index] = object }
                // The pieces' samples and encodings, freed into this thread's arena, are handed
                // back (see MemoryTrim) every few megabytes: a long recording's cut otherwise
                // holds tens of megabytes of them, and handing back after every piece costs more.
                freed += piece.samples.count * MemoryLayout<Int16>.size
                if freed >= Self.bytesBetweenReleases {
                    MemoryTrim.release()
                    freed = 0
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
    }
}
