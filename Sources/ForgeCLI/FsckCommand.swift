import ArgumentParser
import Forge
import Foundation

struct FsckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fsck",
        abstract: "Verify an output directory: every object's hash, every manifest reference, orphans and leftovers.",
        discussion:
            "Exit 0 when clean, 1 when problems were found (and listed), 130 when stopped. With --repair, audio a build left in the remote cache is fetched (items whose audio the cache no longer has are marked for rebuild), items whose objects are missing or corrupt are marked for rebuild, and bad objects, orphans and leftovers are removed; the next build restores what is missing."
    )

    @Argument(help: "An output directory written by forge build.", completion: .directory)
    var outputDirectory: String

    @Flag(
        help:
            "Fix what is found: fetch audio left in the remote cache, mark affected items for rebuild, remove bad objects, orphans and temporary files."
    )
    var repair = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let directory = URL(fileURLWithPath: outputDirectory).standardizedFileURL
        let auditor = StoreAuditor(directory: directory)
        let clock = ContinuousClock.now
        let report: AuditReport
        do {
            if repair { try await fetchLeftAudio(into: directory) }
            report = repair ? try auditor.repair() : try auditor.audit()
        } catch {
            throw CommandFailure(error)
        }
        let seconds = Format.seconds(since: clock)
        if json {
            try JSONOutput.printReport(AuditReportJSON(report, repaired: repair, elapsedSeconds: seconds))
        } else {
            print(
                "\(report.outputDirectory): checked \(report.objectsChecked) objects (\(Format.bytes(report.bytesChecked))) and \(report.itemsChecked) items in \(String(format: "%.2f", seconds)) s\(report.remoteObjects > 0 ? "; \(report.remoteObjects) audio objects (\(Format.bytes(report.remoteBytes))) are in the remote cache only" : "")"
            )
            for problem in report.problems { print("  \(problem)") }
            if report.isClean {
                print("No problems found.")
            } else if repair {
                print(
                    "\(report.problems.count) problem(s) repaired. Run `forge build <recipe>` to rebuild what was removed."
                )
            } else {
                print(
                    "\(report.problems.count) problem(s) found. `forge fsck --repair \(outputDirectory)` marks affected items for rebuild and removes bad files."
                )
            }
        }
        if !report.isClean && !repair { throw ExitCode(1) }
    }

    /// Fetches what a build left in the remote cache, so the directory holds every object it
    /// records. What the cache no longer has is marked for rebuild (and said); a cache that
    /// cannot be reached leaves the audio where it is, which is no problem of the store.
    private func fetchLeftAudio(into directory: URL) async throws {
        let cancellation = InterruptMonitor.flag
        cancellation.beginKeepingWork()
        do {
            try await LeftAudio.fetch(into: directory, cancellation: cancellation)
        } catch let error as RemoteCacheError {
            guard case .audioNotFetched = error else { throw error }
            FileHandle.standardError.write(Data("note: \(error.localizedDescription)\n".utf8))
        }
        if cancellation.isCancelled { throw ExitCode(ForgeExitCode.cancelled.rawValue) }
    }
}
