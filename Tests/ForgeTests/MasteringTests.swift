import Foundation
import Testing

@testable import Forge

/// Mastering streams: a chapter is played through the limiter and the meter block by block, and
/// the result must be the very samples the whole-array limiter gives.
@Suite("Mastering, streamed")
struct MasteringTests {
    /// Speech-like test audio: bursts of a tone with peaks over any ceiling, pauses between.
    static func audio(count: Int) -> [Int16] {
        var random: UInt64 = 42
        return (0..<count).map { index in
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let burst = (index / 3000) % 3 != 2
            let tone = sin(Double(index) * 0.07) * 26_000 + Double(Int(random >> 50) - 8192)
            return burst ? Int16(clamping: Int(tone)) : 0
        }
    }

    /// The limiter over a whole array, as it was written before it streamed: the reference.
    static func referenceLimiter(_ samples: [Int16], gain: Float, ceiling: Float, sampleRate: Int) -> [Int16] {
        let count = samples.count
        guard count > 0 else { return [] }
        let window = max(1, Int(Double(sampleRate) * PeakLimiter.lookAheadMs / 1000))
        let release = Float(1 - exp(-1 / (Double(sampleRate) * PeakLimiter.releaseMs / 1000)))
        let scale = gain / 32768
        // gains[j] first holds what sample j can take, then (walking backwards with a monotonic
        // queue of (need, index)) the least of that over j…j+window−1.
        var gains = [Float](repeating: 1, count: count)
        for index in 0..<count {
            let level = abs(Float(samples[index]) * scale)
            if level > ceiling { gains[index] = ceiling / level }
        }
        var queue: [(need: Float, index: Int)] = []
        var head = 0
        var index = count - 1
        while index >= 0 {
            let need = gains[index]
            while queue.count > head, queue[queue.count - 1].need >= need { queue.removeLast() }
            queue.append((need, index))
            if queue[head].index > index + window - 1 { head += 1 }
            gains[index] = queue[head].need
            if head > 4096 {
                queue.removeFirst(head)
                head = 0
            }
            index -= 1
        }
        // The applied gain: the mean of the last `window` held gains (every one covers this
        // sample, so it never exceeds what the sample needs), recovering at the release rate.
        var output = [Int16](repeating: 0, count: count)
        var sum = 0.0
        var applied: Float = 1
        for index in 0..<count {
            sum += Double(gains[index])
            if index >= window { sum -= Double(gains[index - window]) }
            let smooth = Float(index >= window - 1 ? sum / Double(window) : sum / Double(index + 1))
            applied = min(smooth, applied + (1 - applied) * release)
            let value = (Float(samples[index]) * gain * applied).rounded()
            output[index] = Int16(max(-32768, min(32767, value)))
        }
        return output
    }

    @Test func theStreamingLimiterGivesTheWholeArrayLimitersSamplesForAnyBlocks() {
        let input = Self.audio(count: 50_000)
        let whole = Self.referenceLimiter(input, gain: 1.8, ceiling: 0.5, sampleRate: 22_050)
        #expect(PeakLimiter.apply(input, gain: 1.8, ceiling: 0.5, sampleRate: 22_050) == whole)
        for blockSize in [1, 7, 110, 4096, 50_000] {
            let limiter = StreamingPeakLimiter(gain: 1.8, ceiling: 0.5, sampleRate: 22_050)
            var output: [Int16] = []
            var start = 0
            while start < input.count {
                output += limiter.process(input[start..<min(input.count, start + blockSize)])
                start += blockSize
            }
            output += limiter.finish()
            #expect(output.count == whole.count)
            let first = zip(output, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "blocks of \(blockSize): the streams part from sample \(first ?? -1)")
        }
        // Shorter than the look-ahead: all of it comes out at the end.
        let short = StreamingPeakLimiter(gain: 1, ceiling: 1, sampleRate: 22_050)
        #expect(short.process(input[0..<10]).isEmpty)
        #expect(short.finish() == Self.referenceLimiter(Array(input[0..<10]), gain: 1, ceiling: 1, sampleRate: 22_050))
    }

    /// The first drive allows for the loudness the limiter is expected to take, growing with the
    /// square of how far it is driven past engaging; a drive that does not engage it is kept.
    @Test func theFirstDriveAllowsForTheLimitersExpectedLoss() {
        #expect(Mastering.firstDrive(unlimited: 2, engaged: 3) == 2)
        let drive = Mastering.firstDrive(unlimited: 10, engaged: 1)
        let past = drive - 1
        #expect(abs(drive - Mastering.expectedLossRate * past * past - 10) < 0.001, "\(drive)")
        #expect(drive > 10 && drive <= 18)
        // More than the expected loss lets any drive make up: 8 dB past the loudness's own.
        #expect(Mastering.firstDrive(unlimited: 30, engaged: 0) == 38)
    }

    /// The loss model goes through the passes it is fitted to: a power law recovered from two
    /// passes that lost loudness, the default exponent through one, and no loss below engaging.
    @Test func theLossModelFitsThePassesThatLostLoudness() {
        let (engaged, unlimited) = (2.0, -20.0)
        func pass(_ drive: Double, loss: Double) -> Mastering.Pass {
            Mastering.Pass(drive: drive, loudness: unlimited + drive - loss, rms: 0, truePeak: 1)
        }
        let lossAt = { (drive: Double) in 0.05 * pow(drive - engaged, 1.8) }
        let fitted = Mastering.LossModel(
            [pass(1, loss: 0), pass(8, loss: lossAt(8)), pass(14, loss: lossAt(14))],
            unlimitedLoudness: unlimited, engaged: engaged)
        #expect(abs(fitted.exponent - 1.8) < 1e-9)
        for drive in [5.0, 11, 20] { #expect(abs(fitted.loss(atDrive: drive) - lossAt(drive)) < 1e-9) }
        #expect(fitted.loss(atDrive: 1) == 0)
        let one = Mastering.LossModel([pass(10, loss: 3)], unlimitedLoudness: unlimited, engaged: engaged)
        #expect(one.exponent == Mastering.LossModel.defaultExponent)
        #expect(abs(one.loss(atDrive: 10) - 3) < 1e-9)
        // An exponent outside what a limiter does is clamped; no pass that lost anything, no loss.
        let steep = Mastering.LossModel(
            [pass(4, loss: 0.1), pass(8, loss: 20)], unlimitedLoudness: unlimited, engaged: engaged)
        #expect(steep.exponent == 2.5)
        let none = Mastering.LossModel([pass(1, loss: 0)], unlimitedLoudness: unlimited, engaged: engaged)
        #expect(none.loss(atDrive: 30) == 0)
    }

    /// What mastering's drive search rests on: the limiter's output at gain g and ceiling c is c
    /// times its output at gain g / c and ceiling 1, but for the rounding to 16 bits.
    @Test func theLimiterIsScaleInvariant() {
        let input = Self.audio(count: 40_000)
        let atFullScale = PeakLimiter.apply(input, gain: 3, ceiling: 1, sampleRate: 22_050)
        for ceiling: Float in [0.3, 0.5, 0.8] {
            let scaled = PeakLimiter.apply(input, gain: 3 * ceiling, ceiling: ceiling, sampleRate: 22_050)
            let worst = zip(scaled, atFullScale).map { abs(Float($0) - Float($1) * ceiling) }.max() ?? 0
            #expect(worst <= 1, "ceiling \(ceiling): \(worst)")
        }
    }

    /// Every profile's settings are met, by few passes, for audio that needs gain, audio that
    /// needs less, and sparse clicks whose peaks stand far above their loudness.
    @Test(arguments: ["acx", "ebu-r128", "podcast"])
    func masteringMeetsTheProfileInAFewPasses(profile: String) throws {
        let settings = try #require(MasteringSettings.profile(named: profile))
        let speech = Self.audio(count: 22_050 * 30)
        let signals: [(String, [Int16])] = [
            ("bursts", speech),
            ("quiet bursts", speech.map { $0 / 20 }),
            ("loud bursts", speech.map { Int16(clamping: Int($0) * 5 / 4) }),
            ("clicks", speech.enumerated().map { $0.offset % 2205 < 40 ? $0.element : $0.element / 30 }),
        ]
        for (name, samples) in signals {
            var plays = 0
            var output: [Int16] = []
            try Mastering.master(
                { sink in
                    plays += 1
                    try sink(samples[...])
                }, sampleRate: 22_050, settings: settings, emit: { output += $0 })
            let meter = try LoudnessMeter(sampleRate: 22_050)
            meter.add(output[...])
            let squares = output.reduce(0.0) { $0 + Double($1) * Double($1) }
            let rms = 10 * log10(squares / Double(output.count) / (32768.0 * 32768.0))
            let label = "\(profile), \(name)"
            #expect(output.count == samples.count, "\(label)")
            #expect(meter.truePeak <= settings.truePeakCeiling, "\(label): true peak \(meter.truePeak)")
            if let ceiling = settings.samplePeakCeiling {
                let peak = LoudnessMeter.decibels(Double(output.map { abs(Int($0)) }.max() ?? 0) / 32768)
                #expect(peak <= ceiling + 0.01, "\(label): sample peak \(peak)")
            }
            let short = settings.integratedLoudness - meter.integratedLoudness
            if let maximum = settings.maximumRMS {
                #expect(rms <= maximum, "\(label): RMS \(rms)")
                #expect(
                    abs(short) <= Mastering.tolerance || (short > 0 && rms >= maximum - 0.2), "\(label): \(short) short"
                )
            } else {
                #expect(abs(short) <= Mastering.tolerance, "\(label): \(short) LU short")
            }
            // The measurement, the drive search's passes, and the output. Sparse clicks under
            // EBU R128 still take six passes: their true peak moves with every step.
            #expect(plays <= (name == "clicks" ? 8 : 6), "\(label): played \(plays) times")
        }
    }

    /// The limiter's own rounding is libm's, half away from zero, for every value it can make.
    @Test func theLimitersRoundingIsTheLibrarysRounding() {
        var generator = SystemRandomNumberGenerator()
        var values: [Float] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 32767.5, -32768.5, 0.49999997, 4_194_303.5, 5_000_000.5, 1e9,
        ]
        values += (0..<100_000).map { _ in Float.random(in: -70_000...70_000, using: &generator) }
        values += (0..<1000).map { Float($0) / 2 - 250 }
        for value in values {
            #expect(StreamingPeakLimiter.rounded(value) == value.rounded(), "\(value)")
        }
    }

    @Test func masteringInBlocksGivesTheSameSamplesAsMasteringTheWhole() throws {
        let input = Self.audio(count: 22_050 * 20)
        let settings = try #require(MasteringSettings.profiles.first { $0.profile == "acx" })
        let whole = try Mastering.master(input, sampleRate: 22_050, settings: settings)
        var streamed: [Int16] = []
        try Mastering.master(
            { sink in
                var start = 0
                while start < input.count {
                    try sink(input[start..<min(input.count, start + 3333)])
                    start += 3333
                }
            }, sampleRate: 22_050, settings: settings, emit: { streamed += $0 })
        #expect(streamed == whole)
        #expect(whole != input, "the test audio needs mastering")
    }
}
