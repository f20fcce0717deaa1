import ArgumentParser
import Forge
import Foundation

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show an output directory's items (done, failed, pending), audio, objects and last build.")

    @Argument(help: "An output directory written by forge build.", completion: .directory)
    var outputDirectory: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        let report: StatusReport
        do {
            report = try StatusReport.read(directory: URL(fileURLWithPath: outputDirectory).standardizedFileURL)
        } catch {
            throw CommandFailure(error)
        }
        let counts = report.counts
        if json {
            try JSONOutput.printReport(StatusReportJSON(report))
            return
        }
        print("\(report.outputDirectory)")
        print("  items:   \(counts.items) in \(counts.chapters) chapters (\(counts.words) words)")
        print(
            "           \(counts.done) done, \(counts.spoken) spoken (not aligned), \(counts.failed) failed, \(counts.pending) pending"
        )
        if counts.downloaded > 0 {
            print("           \(counts.downloaded) from the remote cache (downloaded, not synthesized here)")
        }
        print("  audio:   \(Format.clock(seconds: Double(counts.audioMs) / 1000))")
        print("  objects: \(counts.objects) (\(Format.bytes(counts.objectBytes)))")
        if counts.remoteObjects > 0 {
            print(
                "           \(counts.remoteObjects) of them (\(Format.bytes(counts.remoteBytes))) in the remote cache only: audio a build did not need; fetched when a command needs its samples"
            )
        }
        if let build = report.lastBuild {
            print(
                "  last build: #\(build.id ?? 0) \(build.outcome.rawValue), started \(build.startedAt)\(build.endedAt.map { ", ended \($0)" } ?? "")"
            )
            print(
                "              synthesized \(build.itemsSynthesized), downloaded \(build.itemsDownloaded), reused \(build.itemsReused), failed \(build.itemsFailed); forge \(build.toolVersion), \(build.engine) \(build.engineVersion)"
            )
        }
        for failure in counts.failures { print("  failed: \(failure.id): \(failure.error)") }
    }
}
