/// Which synthesis job goes to which worker, and what becomes of a worker's jobs when it dies:
/// the build's scheduling decisions, apart from the processes that carry them out (``WorkerPool``)
/// and the manifest that records their results, so they are tested on their own.
///
/// Each worker holds up to `depth` jobs: while one item is persisted the worker speaks the next,
/// and one more waits in its pipe. A worker that dies fails the item it said it was speaking (or
/// the first it held); the others it held go back to the front of the queue. Dead workers are
/// replaced at most twice per worker of the build.
struct SynthesisScheduler {
    private(set) var queue: ArraySlice<SpeechJob>
    private(set) var inFlight: [Int: [SpeechJob]] = [:]
    private(set) var live: Set<Int> = []
    /// The item each worker said it is speaking now.
    private var speaking: [Int: String] = [:]
    private(set) var restarts = 0
    let workerCount: Int
    let depth: Int

    init(jobs: [SpeechJob], workers: Int, depth: Int = 3) {
        queue = jobs[...]
        workerCount = max(1, min(workers, jobs.count))
        self.depth = depth
    }

    /// Records that `worker` runs (started or restarted).
    mutating func workerStarted(_ worker: Int) {
        live.insert(worker)
    }

    /// The next job to send to `worker`, or nil when it holds enough, the queue is empty, or the build is stopping.
    func nextJob(for worker: Int, stopping: Bool) -> SpeechJob? {
        guard !stopping, live.contains(worker), inFlight[worker, default: []].count < depth else { return nil }
        return queue.first
    }

    /// Records that the job ``nextJob(for:stopping:)`` gave was sent to `worker`.
    mutating func sent(_ job: SpeechJob, to worker: Int) {
        guard queue.first == job else { return }
        queue.removeFirst()
        inFlight[worker, default: []].append(job)
    }

    /// Records which item a worker began speaking.
    mutating func started(_ itemID: String, on worker: Int) {
        speaking[worker] = itemID
    }

    /// The job a worker's result answers, taken out of what the worker holds; nil for an answer to
    /// nothing it holds.
    mutating func finished(_ itemID: String, on worker: Int) -> SpeechJob? {
        guard let position = inFlight[worker]?.firstIndex(where: { $0.itemID == itemID }) else { return nil }
        return inFlight[worker]?.remove(at: position)
    }

    /// Puts a job (a retry with the fallback voice) at the front of the queue.
    mutating func retryFirst(_ job: SpeechJob) {
        queue.insert(job, at: queue.startIndex)
    }

    /// Records that `worker` died. `fail` records the item it was speaking as failed and may return
    /// a retry of it; the other jobs it held, then that retry, go back to the front of the queue.
    /// Returns whether the worker should be replaced.
    mutating func workerExited(_ worker: Int, stopping: Bool, fail: (SpeechJob) throws -> SpeechJob?) rethrows -> Bool {
        live.remove(worker)
        var held = inFlight.removeValue(forKey: worker) ?? []
        if let index = held.firstIndex(where: { $0.itemID == speaking[worker] }) ?? (held.isEmpty ? nil : 0) {
            let culprit = held.remove(at: index)
            if let retry = try fail(culprit) { held.append(retry) }
        }
        speaking[worker] = nil
        queue = ArraySlice(held) + queue
        guard !queue.isEmpty, !stopping, restarts < 2 * workerCount else { return false }
        restarts += 1
        return true
    }

    /// No worker holds a job.
    var isIdle: Bool { inFlight.values.allSatisfy(\.isEmpty) }

    /// Nothing more will be sent: every job is answered, or the build stops and every job sent is answered.
    func isDone(stopping: Bool) -> Bool { isIdle && (queue.isEmpty || stopping) }

    /// Every worker died and none may be replaced: the queue's jobs will not be attempted.
    var isStranded: Bool { isIdle && live.isEmpty && !queue.isEmpty }
}
