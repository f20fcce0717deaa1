/// Runs one asynchronous task per job, at most a given number at once, handing each answer to the
/// caller as it arrives: the loop every remote-cache transfer (lookups, downloads, uploads) shares,
/// so each says only what it asks and what it does with an answer.
enum BoundedTasks {
    /// What to do after an answer.
    enum Next {
        /// Start the next job.
        case goOn
        /// Start no more; the answers of the tasks in flight are still handed over.
        case startNoMore
        /// Start no more and cancel the tasks in flight (their answers, cut short, are still handed over).
        case cancelRest
    }

    /// Runs `perform` for each of `jobs`, at most `limit` at once, and hands each job and its answer
    /// to `take`, one at a time, in the caller's context. A set `cancellation` (Ctrl-C) does as
    /// ``Next/cancelRest`` within a tenth of a second.
    static func run<Job: Sendable, Answer: Sendable>(
        _ jobs: some Sequence<Job>, limit: Int, cancellation: CancellationFlag?,
        perform: @escaping @Sendable (Job) async -> Answer, take: (Job, Answer) -> Next
    ) async {
        var pending = jobs.makeIterator()
        await run(next: { pending.next() }, limit: limit, cancellation: cancellation, perform: perform, take: take)
    }

    /// ``run(_:limit:cancellation:perform:take:)`` for jobs that arrive while it runs (a stream that
    /// ends when the work does); a job is awaited only while fewer than `limit` tasks run.
    static func run<Job: Sendable, Answer: Sendable>(
        arriving jobs: AsyncStream<Job>, limit: Int, perform: @escaping @Sendable (Job) async -> Answer,
        take: (Job, Answer) -> Next
    ) async {
        var pending = jobs.makeAsyncIterator()
        await run(next: { await pending.next() }, limit: limit, cancellation: nil, perform: perform, take: take)
        // Jobs that arrive after the work stopped are let go, not kept until the stream ends.
        while await pending.next() != nil {}
    }

    private enum Event<Job: Sendable, Answer: Sendable>: Sendable {
        case answer(Job, Answer)
        case stopped
    }

    private static func run<Job: Sendable, Answer: Sendable>(
        next: () async -> Job?, limit: Int, cancellation: CancellationFlag?,
        perform: @escaping @Sendable (Job) async -> Answer, take: (Job, Answer) -> Next
    ) async {
        await withTaskGroup(of: Event<Job, Answer>.self) { group in
            if let cancellation {
                // Cancelling the tasks is what stops a transfer in flight; the flag is polled, as it is set from a signal.
                group.addTask {
                    while !cancellation.isCancelled && !Task.isCancelled {
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    return .stopped
                }
            }
            var starting = true
            var running = 0
            func startNext() async {
                guard starting, cancellation?.isCancelled != true, let job = await next() else { return }
                running += 1
                group.addTask { .answer(job, await perform(job)) }
            }
            while starting && running < limit {
                let before = running
                await startNext()
                if running == before { break }
            }
            while running > 0, let event = await group.next() {
                switch event {
                case .stopped:
                    starting = false
                    group.cancelAll()
                case .answer(let job, let answer):
                    running -= 1
                    switch take(job, answer) {
                    case .goOn: break
                    case .startNoMore: starting = false
                    case .cancelRest:
                        starting = false
                        group.cancelAll()
                    }
                    await startNext()
                }
            }
            group.cancelAll()
        }
    }
}
