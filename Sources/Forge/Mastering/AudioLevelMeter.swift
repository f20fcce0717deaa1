import Foundation

/// Measures ``AudioLevels`` as audio streams through it: loudness and peaks by libebur128, and
/// RMS, noise floor and head/tail silence over 10 ms frames. Memory stays constant however long
/// the audio (a half-second ring of frame energies is all it keeps).
final class AudioLevelMeter {
    /// A frame louder than this is sound; quieter is silence (room tone), for head and tail.
    static let silenceThreshold = -50.0
    static let frameMs = 10
    static let noiseWindowFrames = 50

    private let loudness: LoudnessMeter
    var sampleRate: Int { loudness.sampleRate }
    private let frameLength: Int
    private var pending: [Int16] = []
    private var sumOfSquares = 0.0
    private var samples = 0
    private var frames = 0
    private var firstSound: Int?
    private var lastSound: Int?
    private var window: [Double] = []
    private var windowSum = 0.0
    private var quietestWindow = Double.infinity

    init(sampleRate: Int) throws(MasteringError) {
        loudness = try LoudnessMeter(sampleRate: sampleRate)
        frameLength = max(1, sampleRate * Self.frameMs / 1000)
        pending.reserveCapacity(frameLength)
    }

    func add(_ block: ArraySlice<Int16>) {
        loudness.add(block)
        for sample in block {
            pending.append(sample)
            if pending.count == frameLength { closeFrame() }
        }
    }

    private func closeFrame() {
        var energy = 0.0
        for sample in pending { energy += Double(sample) * Double(sample) }
        sumOfSquares += energy
        samples += pending.count
        let mean = energy / Double(pending.count)
        if Self.decibels(meanSquare: mean) > Self.silenceThreshold {
            if firstSound == nil { firstSound = frames }
            lastSound = frames
        }
        window.append(mean)
        windowSum += mean
        if window.count > Self.noiseWindowFrames { windowSum -= window.removeFirst() }
        if window.count == Self.noiseWindowFrames {
            quietestWindow = min(quietestWindow, windowSum / Double(window.count))
        }
        frames += 1
        pending.removeAll(keepingCapacity: true)
    }

    /// The levels of everything added.
    func finish() -> AudioLevels {
        let tailSamples = pending.count
        if !pending.isEmpty {
            var energy = 0.0
            for sample in pending { energy += Double(sample) * Double(sample) }
            sumOfSquares += energy
            samples += pending.count
            pending.removeAll()
        }
        let durationMs = Int(Double(samples) * 1000 / Double(loudness.sampleRate))
        let rms = samples > 0 ? Self.decibels(meanSquare: sumOfSquares / Double(samples)) : -.infinity
        // Shorter than the window: the whole is the quietest stretch there is.
        let noise = quietestWindow.isFinite ? Self.decibels(meanSquare: quietestWindow) : rms
        let head = firstSound.map { $0 * Self.frameMs } ?? durationMs
        let tail =
            lastSound.map { (frames - 1 - $0) * Self.frameMs + tailSamples * 1000 / loudness.sampleRate } ?? durationMs
        return AudioLevels(
            integratedLoudness: loudness.integratedLoudness, loudnessRange: loudness.loudnessRange,
            samplePeak: loudness.samplePeak,
            truePeak: loudness.truePeak, rms: rms, noiseFloor: noise, headSilenceMs: head, tailSilenceMs: tail,
            durationMs: durationMs)
    }

    static func decibels(meanSquare: Double) -> Double {
        meanSquare > 0 ? 10 * log10(meanSquare / (32768.0 * 32768.0)) : -.infinity
    }
}
