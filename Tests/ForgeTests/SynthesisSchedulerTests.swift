import Testing

@testable import Forge

/// The build's scheduling of synthesis jobs onto workers, without processes: what is sent where,
/// and what happens to a dead worker's jobs.
@Suite struct SynthesisSchedulerTests {
    static func jobs(_ count: Int) -> [SpeechJob] {
        (0..<count).map {
            SpeechJob(
                itemID: "i\($0)", text: "Item \($0).", voice: VoiceSettings(id: "en-us"), audio: AudioSettings(),
                audioKey: "a\($0)", eventsKey: "e\($0)")
        }
    }

    /// Sends to `worker` what the scheduler offers, as the build does.
    static func fill(_ scheduler: inout SynthesisScheduler, _ worker: Int, stopping: Bool = false) -> [String] {
        var sent: [String] = []
        while let job = scheduler.nextJob(for: worker, stopping: stopping) {
            scheduler.sent(job, to: worker)
            sent.append(job.itemID)
        }
        return sent
    }

    @Test func eachWorkerHoldsUpToItsDepthInQueueOrderAndAResultFreesASlot() {
        var scheduler = SynthesisScheduler(jobs: Self.jobs(10), workers: 2)
        #expect(scheduler.workerCount == 2)
        scheduler.workerStarted(0)
        scheduler.workerStarted(1)
        #expect(Self.fill(&scheduler, 0) == ["i0", "i1", "i2"])
        #expect(Self.fill(&scheduler, 1) == ["i3", "i4", "i5"])
        #expect(scheduler.finished("i4", on: 1)?.itemID == "i4")
        #expect(scheduler.finished("i4", on: 1) == nil, "an answer to a job the worker no longer holds is ignored")
        #expect(scheduler.finished("i0", on: 1) == nil, "an answer to another worker's job is ignored")
        #expect(Self.fill(&scheduler, 1) == ["i6"])
        #expect(!scheduler.isDone(stopping: false))
        #expect(Self.fill(&scheduler, 0, stopping: true).isEmpty, "nothing more is sent once the build stops")
    }

    @Test func aDeadWorkerFailsTheItemItWasSpeakingAndItsOtherJobsGoFirst() {
        var scheduler = SynthesisScheduler(jobs: Self.jobs(8), workers: 2)
        scheduler.workerStarted(0)
        scheduler.workerStarted(1)
        _ = Self.fill(&scheduler, 0)  // i0 i1 i2
        _ = Self.fill(&scheduler, 1)  // i3 i4 i5
        scheduler.started("i1", on: 0)
        var failed: [String] = []
        let replace = scheduler.workerExited(0, stopping: false) {
            failed.append($0.itemID)
            return nil
        }
        #expect(failed == ["i1"], "the item in hand when the worker died is the one failed")
        #expect(replace && scheduler.restarts == 1)
        #expect(
            scheduler.queue.map(\.itemID) == ["i0", "i2", "i6", "i7"], "the dead worker's other jobs are retried first")
        scheduler.workerStarted(0)
        #expect(Self.fill(&scheduler, 0) == ["i0", "i2", "i6"])
    }

    @Test func aFailedItemsRetryFollowsTheOtherHeldJobs() {
        var scheduler = SynthesisScheduler(jobs: Self.jobs(4), workers: 1)
        scheduler.workerStarted(0)
        _ = Self.fill(&scheduler, 0)  // i0 i1 i2
        // No notice came: the first job held is taken as the culprit.
        _ = scheduler.workerExited(0, stopping: false) { culprit in
            var retry = culprit
            retry.voice = VoiceSettings(id: "en-gb")
            return retry
        }
        #expect(scheduler.queue.map(\.itemID) == ["i1", "i2", "i0", "i3"])
        #expect(scheduler.queue[scheduler.queue.startIndex + 2].voice.id == "en-gb")
    }

    @Test func workersAreReplacedAtMostTwicePerWorkerThenTheRestIsStranded() {
        var scheduler = SynthesisScheduler(jobs: Self.jobs(20), workers: 2)
        scheduler.workerStarted(0)
        scheduler.workerStarted(1)
        var replaced = 0
        for round in 0..<10 {
            let worker = round % 2
            guard scheduler.live.contains(worker) else { continue }
            _ = Self.fill(&scheduler, worker)
            if scheduler.workerExited(worker, stopping: false, fail: { _ in nil }) {
                replaced += 1
                scheduler.workerStarted(worker)
            }
        }
        #expect(replaced == 4 && scheduler.restarts == 4)
        #expect(scheduler.isStranded, "with every worker dead and none to replace them, the queue is reported")
        #expect(!scheduler.queue.isEmpty)
    }

    @Test func aStoppingBuildIsDoneWhenEveryJobSentIsAnswered() {
        var scheduler = SynthesisScheduler(jobs: Self.jobs(6), workers: 1)
        scheduler.workerStarted(0)
        _ = Self.fill(&scheduler, 0)
        #expect(!scheduler.isDone(stopping: true), "jobs in a worker's hands are waited for")
        for id in ["i0", "i1", "i2"] { _ = scheduler.finished(id, on: 0) }
        #expect(scheduler.isDone(stopping: true))
        #expect(!scheduler.isDone(stopping: false), "without a stop the queue's jobs are still to send")
        let replace = scheduler.workerExited(0, stopping: true, fail: { _ in nil })
        #expect(!replace, "no worker is replaced while stopping")
    }
}
