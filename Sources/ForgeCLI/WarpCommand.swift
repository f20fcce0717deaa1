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
        let referenceFrames = try ReadingWarp.Frames(readingAudioAt: URL(fileURLWithPath: reference))
        let recordingFrames = try ReadingWarp.Frames(readingAudioAt: URL(fileURLWithPath: recording))
        let featured = ContinuousClock.now
        let path = ReadingWarp(radius: radius).path(referenceFrames, recordingFrames)
        let warped = ContinuousClock.now
        let perFrame = 1000 / ReadingWarp.Frames.perSecond
        let wanted = try String(contentsOfFile: times, encoding: .utf8).split(whereSeparator: \.isNewline)
        for line in wanted {
            guard let milliseconds = Int(line.trimmingCharacters(in: .whitespaces)) else { continue }
            let row = path[min(path.count - 1, max(0, milliseconds / perFrame))]
            print("\(milliseconds) \(row.first * perFrame) \(row.cost)")
        }
        for disagreement in ReadingWarp.disagreements(in: path) {
            switch disagreement {
            case .audioWithoutText(let recording, let reference):
                print(
                    "# audio-without-text \(recording.lowerBound * perFrame) \(recording.upperBound * perFrame) at \(reference * perFrame)"
                )
            case .textWithoutAudio(let reference, let recording):
                print(
                    "# text-without-audio \(reference.lowerBound * perFrame) \(reference.upperBound * perFrame) at \(recording * perFrame)"
                )
            }
        }
        FileHandle.standardError.write(
            Data(
                """
                frames \(referenceFrames.count) x \(recordingFrames.count); features \(String(format: "%.2f", (featured - started).seconds)) s, warp \(String(format: "%.2f", (warped - featured).seconds)) s

                """.utf8))
    }
}
