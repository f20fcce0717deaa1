import Foundation
import Testing

@testable import Forge

/// Builds stopped by real signals, then resumed.
@Suite("Interrupted builds", .serialized)
struct InterruptionTests {
    /// The shipped sample (91 items) with one worker, so a build lasts long enough to interrupt.
    func sampleProject() throws -> TestProject {
        try TestProject(book: Fixtures.sampleText, recipe: Fixtures.recipe(jobs: 1))
    }

    func itemEvents(_ line: String) -> Bool { line.contains("\"event\":\"item\"") }

    @Test func ctrlCStopsGracefullyKeepsFinishedItemsAndARerunFinishesTheRest() throws {
        let project = try sampleProject()
        let forge = try project.start()
        #expect(forge.waitForLines(count: 5, where: itemEvents))
        forge.signal(SIGINT)
        let stopped = forge.wait()
        #expect(stopped.status == 130, "\(stopped.errors)")
        #expect(stopped.summary?["cancelled"] as? Bool == true)
        #expect(!stopped.events("cancelling").isEmpty)
        let kept = try project.doneItems()
        #expect(kept.count >= 5)
        #expect(kept.count < 91, "the build finished before the signal; the test proves nothing")
        // Every item reported finished before the stop was committed.
        let reported = Set(stopped.events("item").compactMap { $0["id"] as? String })
        #expect(reported.isSubset(of: kept))
        try project.checkConsistency()
        #expect(try project.manifest().lastBuild()?.outcome == .cancelled)

        let rerun = try project.build()
        #expect(rerun.status == 0)
        #expect(rerun.synthesizedItems.isDisjoint(with: kept), "finished items were synthesized again")
        #expect(try project.doneItems().count == 91)
        try project.checkConsistency()
        #expect(project.temporaryFiles().isEmpty)
    }

    @Test func sigtermBehavesLikeCtrlC() throws {
        let project = try sampleProject()
        let forge = try project.start()
        #expect(forge.waitForLines(count: 3, where: itemEvents))
        forge.signal(SIGTERM)
        let stopped = forge.wait()
        #expect(stopped.status == 130)
        #expect(try project.doneItems().count >= 3)
        try project.checkConsistency()
    }

    @Test func killMinus9LosesOnlyUnsavedWorkAndARerunFinishesOnlyWhatIsLeft() throws {
        let project = try sampleProject()
        let forge = try project.start()
        #expect(forge.waitForLines(count: 10, where: itemEvents))
        forge.signalWithWorkers(SIGKILL)
        _ = forge.wait()
        #expect(forge.process.terminationReason == .uncaughtSignal)
        let kept = try project.doneItems()
        #expect(kept.count >= 10, "with saveInterval 1 every reported item was committed")
        #expect(kept.count < 91)
        try project.checkConsistency()
        // A worker killed mid-write leaves a temporary file like this one; the next build must clear it.
        try project.directory.write(
            "out/objects/tmp/\(String(repeating: "ab", count: 32)).4242.7.tmp", "half an object")
        #expect(!project.temporaryFiles().isEmpty)

        let rerun = try project.build()
        #expect(rerun.status == 0, "\(rerun.errors)")
        #expect(rerun.synthesizedItems.isDisjoint(with: kept), "finished items were synthesized again")
        #expect(try project.doneItems().count == 91)
        try project.checkConsistency()
        #expect(project.temporaryFiles().isEmpty, "temp files survived the rerun")
        #expect(try project.manifest().items().allSatisfy { $0.status == .done })
    }

    @Test func saveIntervalBoundsWhatAKillCanLose() throws {
        let project = try TestProject(book: Fixtures.sampleText, recipe: Fixtures.recipe(jobs: 1, saveInterval: 20))
        let forge = try project.start()
        #expect(forge.waitForLines(count: 25, where: itemEvents))
        forge.signal(SIGKILL)
        _ = forge.wait()
        let kept = try project.doneItems().count
        #expect(kept >= 20 && kept % 20 == 0, "commits come in batches of 20; found \(kept)")
        try project.checkConsistency()
        // Items finished after the last commit left their objects in the store: the rerun reuses them.
        let rerun = try project.build()
        #expect(rerun.status == 0)
        #expect((rerun.summary?["reused"] as? Int ?? 0) >= 1)
        #expect(try project.doneItems().count == 91)
    }

    /// Without `saveInterval` a build commits at least once a second and every 64 items: the sample's
    /// 91 fast items in a few commits, not one each; a kill then loses at most the items since
    /// the last commit, and their objects are reused.
    @Test func theDefaultSaveCommitsFastItemsInBatches() throws {
        let project = try TestProject(book: Fixtures.sampleText, recipe: Fixtures.recipe(jobs: 2, saveInterval: nil))
        let built = try project.build()
        #expect(built.status == 0, "\(built.errors)")
        let saves = built.events("saved").compactMap { $0["items"] as? Int }
        #expect(saves.reduce(0, +) == 91)
        #expect(saves.count >= 2 && saves.allSatisfy { $0 <= BuildSettings.automaticSaveItems }, "\(saves)")
        #expect(saves.count < 45, "fast items are committed in batches: \(saves)")
        try project.checkConsistency()
    }

    @Test func aSecondBuildIntoTheSameOutputIsRefusedAtOnce() throws {
        let project = try sampleProject()
        let first = try project.start()
        #expect(first.waitForLines(count: 1, where: itemEvents))
        let second = try project.build()
        #expect(second.status == 3)
        #expect(second.errors.contains("another forge (pid \(first.process.processIdentifier)"))
        let finished = first.wait()
        #expect(finished.status == 0)
        try project.checkConsistency()
    }
}
