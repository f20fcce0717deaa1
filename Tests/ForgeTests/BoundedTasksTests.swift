import Foundation
import Synchronization
import Testing

@testable import Forge

/// The loop every remote-cache transfer runs in: never more tasks at once than its limit, every
/// answer handed over once, a stop that starts no more, and Ctrl-C that cuts the tasks in flight short.
@Suite struct BoundedTasksTests {
    /// Counts the tasks running at once and the most there were.
    final class Gauge: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
        }
        func leave() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    @Test func atMostTheLimitRunAtOnceAndEveryAnswerArrivesOnce() async {
        let gauge = Gauge()
        var answers: [Int: Int] = [:]
        await BoundedTasks.run(
            Array(0..<40), limit: 3, cancellation: CancellationFlag(),
            perform: { job in
                gauge.enter()
                try? await Task.sleep(for: .milliseconds(5 + job % 7))
                gauge.leave()
                return job * 2
            },
            take: { job, answer in
                answers[job, default: 0] += 1
                #expect(answer == job * 2)
                return .goOn
            })
        #expect(answers.count == 40 && answers.values.allSatisfy { $0 == 1 })
        #expect(gauge.most == 3)
    }

    @Test func aStopStartsNoMoreButHandsOverWhatWasInFlight() async {
        var taken: [Int] = []
        await BoundedTasks.run(
            Array(0..<100), limit: 4, cancellation: nil,
            perform: { job in
                try? await Task.sleep(for: .milliseconds(job == 0 ? 1 : 50))
                return job
            },
            take: { job, _ in
                taken.append(job)
                return job == 0 ? .startNoMore : .goOn
            })
        // Job 0 answers first and stops the rest: the three in flight still arrive, nothing after them starts.
        #expect(taken.sorted() == [0, 1, 2, 3])
    }

    @Test func aCancelledFlagCutsTheTasksInFlightShort() async {
        let flag = CancellationFlag()
        var cutShort = 0
        var taken = 0
        await BoundedTasks.run(
            Array(0..<10), limit: 2, cancellation: flag,
            perform: { job in
                if job == 1 { flag.cancel() }
                do {
                    try await Task.sleep(for: .seconds(job == 1 ? 0 : 600))
                    return false
                } catch { return true }
            },
            take: { _, wasCutShort in
                taken += 1
                if wasCutShort { cutShort += 1 }
                return .goOn
            })
        // Not timed (the suite shares two cores): the ten-minute task answering "cut short" is the proof
        // (thirty seconds once elapsed before the stop reached it, on a machine three jobs deep).
        #expect(taken == 2 && cutShort == 1)
    }

    @Test func aStopInAStreamOfJobsTakesNoMoreOfThem() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let producer = Task {
            for job in 0..<50 { continuation.yield(job) }
            continuation.finish()
        }
        var taken = 0
        await BoundedTasks.run(
            arriving: stream, limit: 2, perform: { $0 },
            take: { _, _ in
                taken += 1
                return .cancelRest
            })
        await producer.value
        #expect(taken >= 1 && taken <= 2)
    }
}
