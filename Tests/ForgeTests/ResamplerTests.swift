import Foundation
import Testing

@testable import Forge

/// The resampler feeds the recognizer (16 kHz) and every output at another rate than the engine's.
@Suite struct ResamplerTests {
    static func tone(_ frequency: Double, rate: Int, seconds: Double = 1, amplitude: Double = 16_000) -> [Int16] {
        (0..<Int(Double(rate) * seconds)).map {
            Int16(amplitude * sin(2 * .pi * frequency * Double($0) / Double(rate)))
        }
    }

    /// Level of `samples` relative to a full-scale-16000 sine, in dB, ignoring the filter's edges.
    static func level(_ samples: [Int16]) -> Double {
        let middle = samples[samples.count / 10..<samples.count * 9 / 10]
        let rms = sqrt(middle.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(middle.count))
        return 20 * log10(max(rms, 1e-9) / (16_000 / 2.0.squareRoot()))
    }

    @Test(arguments: [(22_050, 16_000, 10_000.0), (48_000, 16_000, 12_000.0), (44_100, 22_050, 15_000.0)])
    func aToneAboveTheNewNyquistDoesNotFoldBack(source: Int, target: Int, frequency: Double) {
        let output = Resampler.resample(Self.tone(frequency, rate: source), from: source, to: target)
        #expect(output.count == target)
        #expect(
            Self.level(output) < -60, "\(frequency) Hz at \(source) → \(target) Hz aliases at \(Self.level(output)) dB")
    }

    @Test(arguments: [
        (22_050, 16_000, 6_000.0), (22_050, 16_000, 1_000.0), (16_000, 22_050, 4_000.0), (48_000, 16_000, 7_000.0),
    ])
    func speechFrequenciesPassUnchanged(source: Int, target: Int, frequency: Double) {
        let output = Resampler.resample(Self.tone(frequency, rate: source), from: source, to: target)
        #expect(abs(Self.level(output)) < 0.5, "\(frequency) Hz at \(source) → \(target) Hz: \(Self.level(output)) dB")
    }

    /// Fed in uneven blocks, the stream gives the same samples as one call: block boundaries leave no mark.
    @Test func blocksOfAnySizeGiveTheSameSamples() {
        let input = Self.tone(440, rate: 22_050, seconds: 7)
        var whole: [Int16] = []
        let once = Resampler(from: 22_050, to: 16_000)
        once.process(input[...], into: &whole)
        once.finish(into: &whole)
        var pieces: [Int16] = []
        let stream = Resampler(from: 22_050, to: 16_000)
        var start = 0
        for size in [1, 7, 1000, 65_537, 3] where start < input.count {
            stream.process(input[start..<min(start + size, input.count)], into: &pieces)
            start += size
        }
        stream.process(input[start...], into: &pieces)
        stream.finish(into: &pieces)
        #expect(pieces == whole)
        #expect(abs(whole.count - input.count * 16_000 / 22_050) <= 1)
        // The one-call form is the same stream, to its end (the filter's delay flushed, not zeros).
        #expect(
            Resampler.resample(input, from: 22_050, to: 16_000) == Array(whole.prefix(input.count * 16_000 / 22_050)))
    }
}

/// The recognizer's input conversion is the one its accuracy was measured with (RecognizerInput's
/// doc): a change to it must be measured again, so its output for a fixed input is pinned.
@Suite struct RecognizerInputTests {
    @Test func theRecognizersConversionIsTheMeasuredOne() {
        let input =
            ResamplerTests.tone(440, rate: 22_050, seconds: 0.5)
            + ResamplerTests.tone(9_000, rate: 22_050, seconds: 0.5)
        let output = RecognizerInput.samples(input[...], from: 22_050)
        #expect(output.count == 16_000)
        #expect(ContentHash.sha256Hex(output.withUnsafeBytes { Array($0) }).prefix(16) == "05f44bdddd0d0515")
        // At 48 kHz the moving average is three samples wide (at 22,050 Hz it rounds to one).
        let recorded =
            ResamplerTests.tone(440, rate: 48_000, seconds: 0.5)
            + ResamplerTests.tone(9_000, rate: 48_000, seconds: 0.5)
        let narration = RecognizerInput.samples(recorded[...], from: 48_000)
        #expect(narration.count == 16_000)
        #expect(ContentHash.sha256Hex(narration.withUnsafeBytes { Array($0) }).prefix(16) == "87fcc39e204a424b")
        #expect(RecognizerInput.samples(input[...], from: 16_000) == input, "16 kHz passes as it is")
    }

    /// The recognizer's 16 kHz input made a block at a time (a recording hours long is never held
    /// whole) is the very same samples as made from the whole recording.
    @Test func recognizerInputStreamedInBlocksEqualsTheWholeConversion() {
        var generator = SystemRandomNumberGenerator()
        for rate in [8_000, 16_000, 22_050, 44_100, 48_000] {
            let samples = (0..<(rate * 3 + 17)).map { _ in Int16.random(in: -20_000...20_000, using: &generator) }
            let whole = RecognizerInput.samples(samples[...], from: rate)
            let stream = RecognizerInputStream(sourceRate: rate)
            var streamed: [Int16] = []
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + Int.random(in: 1...9_000, using: &generator))
                streamed += stream.process(Array(samples[start..<end]))
                start = end
            }
            streamed += stream.finish()
            let firstDifference = zip(streamed, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(
                streamed.count == whole.count && firstDifference == nil,
                "\(rate) Hz: \(streamed.count) samples streamed, \(whole.count) whole, first difference at \(String(describing: firstDifference))"
            )
        }
    }
}
