import ArgumentParser
import Forge
import Foundation

/// `forge warp reference recording --times file`: the sync's first pass alone, for measuring it
/// (`benchmarks/warp.sh`): where each time of the reference reading falls in the recording.
struct WarpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warp",
        abstract: "Internal: pair times of one reading with another's by warping their spectra.",
        shouldDisplay: false)

    @Argument(help: "The reading whose times are known (e.g. Forge's own of the book).")
    var reference: String

    @Argument(help: "The recording to find them in.")
    var recording: String

    @Option(help: "A file of reference times in milliseconds, one a line.")
    var times: String

    @Option(help: "Frames of the band around each level's path.")
    var radius = 16

    func run() throws {
        let started = ContinuousClock.now
        let scratch = FileManager.default.temporaryDirectory
        let readings = try FrameFile.readings(
            audioAt: [URL(fileURLWithPath: reference), URL(fileURLWithPath: recording)], directory: scratch)
        let (referenceFrames, recordingFrames) = (readings[0], readings[1])
        let featured = ContinuousClock.now
        let perFrame = 1000 / ReadingWarp.Frames.perSecond
        // Each reference frame's first recording frame and its cost: all the times asked for need.
        var firsts: [Int32] = []
        var costs: [Float] = []
        var disagreements: [String] = []
        try ReadingWarp(radius: radius).path(referenceFrames, recordingFrames) { firstRow, rows in
            firsts += rows.map { Int32($0.first) }
            costs += rows.map(\.cost)
            for disagreement in ReadingWarp.disagreements(in: rows) {
                switch disagreement {
                case .audioWithoutText(let recording, let reference):
                    disagreements.append(
                        "# audio-without-text \(recording.lowerBound * perFrame) \(recording.upperBound * perFrame) at \((firstRow + reference) * perFrame)"
                    )
                case .textWithoutAudio(let reference, let recording):
                    disagreements.append(
                        "# text-without-audio \((firstRow + reference.lowerBound) * perFrame) \((firstRow + reference.upperBound) * perFrame) at \(recording * perFrame)"
                    )
                }
            }
        }
        let warped = ContinuousClock.now
        let wanted = try String(contentsOfFile: times, encoding: .utf8).split(whereSeparator: \.isNewline)
        for line in wanted {
            guard let milliseconds = Int(line.trimmingCharacters(in: .whitespaces)) else { continue }
            let row = min(firsts.count - 1, max(0, milliseconds / perFrame))
            print("\(milliseconds) \(Int(firsts[row]) * perFrame) \(costs[row])")
        }
        for line in disagreements { print(line) }
        FileHandle.standardError.write(
            Data(
                """
                frames \(referenceFrames.count) x \(recordingFrames.count); features \(String(format: "%.2f", (featured - started).seconds)) s, warp \(String(format: "%.2f", (warped - featured).seconds)) s

                """.utf8))
    }
}
