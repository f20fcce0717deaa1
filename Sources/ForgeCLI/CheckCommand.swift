import ArgumentParser
import Forge
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Measure each chapter's loudness and levels and check them against a delivery profile (ACX, EBU R128, podcast).",
        discussion: """
            Given an output directory, each chapter is measured as `forge export` renders it (items on the chapter \
            timeline, with the default export pauses, mastered with --mastering); given audio files (exported chapters, \
            an ACX set), each file as it is. Measured by libebur128 (integrated loudness, loudness range, sample and true peak, per ITU-R BS.1770), plus RMS, \
            noise floor (the quietest half second) and the silence at its head and tail. Profiles: \
            acx — RMS −23…−18 dBFS, peak ≤ −3 dBFS, noise floor ≤ −60 dBFS, 0.5–1 s head and 1–5 s tail room tone; \
            ebu-r128 — −23 LUFS ±1 LU, true peak ≤ −1 dBTP; podcast — −16 LUFS ±1 LU, true peak ≤ −1 dBTP. \
            Exit 0 when every chapter conforms, 1 when one does not (a CI gate), 2 on bad arguments, 3 when the build is incomplete.
            """)

    @Argument(help: "An output directory written by forge build, or audio files to measure.", completion: .file())
    var paths: [String]

    @Option(help: "The delivery profile to check against.")
    var profile = LoudnessProfile.acx

    @Option(
        help:
            "Measure an output directory's chapters mastered as this export profile would, or as made (none) (default: as the build exports them, with its pauses and mastering)."
    )
    var mastering: MasteringChoice?

    @Flag(help: "Print a JSON report.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name an output directory or audio files to check.") }
    }

    func run() async throws {
        let report: ConformanceReport
        do {
            let check = ConformanceCheck(profile: profile)
            let urls = paths.map { URL(fileURLWithPath: $0) }
            var isDirectory: ObjCBool = false
            if urls.count == 1, FileManager.default.fileExists(atPath: urls[0].path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                // Chapters as the build exports them: its pauses and mastering, unless told otherwise.
                var overrides = ExportOverrides()
                overrides.mastering = mastering.map(\.settings)
                let settings = try RecordedSettings.exportSettings(inDirectory: urls[0], merging: overrides)
                try await LeftAudio.fetch(into: urls[0], cancellation: InterruptMonitor.flag)
                report = try check.run(outputDirectory: urls[0], settings: settings)
            } else {
                report = try check.run(files: urls)
            }
        } catch {
            throw CommandFailure(error)
        }
        if json {
            try JSONOutput.printReport(ConformanceReportJSON(report))
        } else {
            print(Self.table(report))
        }
        if !report.passed { throw ExitCode(ForgeExitCode.itemsFailed.rawValue) }
    }

    static func table(_ report: ConformanceReport) -> String {
        func number(_ value: Double) -> String { value.isFinite ? String(format: "%.1f", value) : "-inf" }
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        let header = ["chapter", "LUFS", "LRA", "RMS", "peak", "TP", "noise", "head", "tail", ""]
        let widths = [8, 7, 6, 7, 7, 7, 7, 7, 7, 0]
        func row(_ cells: [String]) -> String { zip(cells, widths).map { pad($0, $1) }.joined(separator: " ") }
        var lines = [row(header)]
        func cells(_ name: String, _ levels: AudioLevels, _ result: String) -> [String] {
            [
                name, number(levels.integratedLoudness), number(levels.loudnessRange), number(levels.rms),
                number(levels.samplePeak),
                number(levels.truePeak), number(levels.noiseFloor),
                String(format: "%.2f", Double(levels.headSilenceMs) / 1000),
                String(format: "%.2f", Double(levels.tailSilenceMs) / 1000), result,
            ]
        }
        for chapter in report.chapters {
            lines.append(row(cells(String(chapter.ordinal), chapter.levels, chapter.passed ? "pass" : "FAIL")))
        }
        lines.append(row(cells("book", report.book, "")))
        lines.append("(LUFS and LU per EBU R128; RMS, peak and noise in dBFS; TP in dBTP; head and tail silence in s)")
        for chapter in report.failedChapters {
            lines.append(
                "chapter \(chapter.ordinal) (\(chapter.fileStem)): " + chapter.violations.joined(separator: "; "))
        }
        let verdict =
            report.passed
            ? "Every chapter (\(report.chapters.count)) conforms to \(report.profile.name)."
            : "\(report.failedChapters.count) of \(report.chapters.count) chapter(s) do not conform to \(report.profile.name)."
        let reused = report.chapters.count - report.measuredChapters
        lines.append(
            verdict
                + String(
                    format: " Measured %d now%@ in %.2f s.", report.measuredChapters,
                    reused > 0 ? ", \(reused) unchanged from the manifest" as NSString : "" as NSString,
                    report.elapsedSeconds))
        return lines.joined(separator: "\n")
    }
}
