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

    @Test func theStreamingLimiterGivesTheWholeArrayLimitersSamplesForAnyBlocks() {
        let input = Self.audio(count: 50_000)
        let whole = PeakLimiter.apply(input, gain: 1.8, ceiling: 0.5, sampleRate: 22_050)
        for blockSize in [1, 7, 110, 4096, 50_000] {
            var limiter = StreamingPeakLimiter(gain: 1.8, ceiling: 0.5, sampleRate: 22_050)
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
        var short = StreamingPeakLimiter(gain: 1, ceiling: 1, sampleRate: 22_050)
        #expect(short.process(input[0..<10]).isEmpty)
        #expect(short.finish() == PeakLimiter.apply(Array(input[0..<10]), gain: 1, ceiling: 1, sampleRate: 22_050))
    }

    @Test func masteringInBlocksGivesTheSameSamplesAsMasteringTheWhole() throws {
        let input = Self.audio(count: 22_050 * 20)
        let settings = try #require(MasteringSettings.profiles.first { $0.profile == "acx" })
        let whole = try Mastering.master(input, sampleRate: 22_050, settings: settings)
        var streamed: [Int16] = []
        try Mastering.master({ sink in
            var start = 0
            while start < input.count {
                try sink(input[start..<min(input.count, start + 3333)])
                start += 3333
            }
        }, sampleRate: 22_050, settings: settings) { streamed += $0 }
        #expect(streamed == whole)
        #expect(whole != input, "the test audio needs mastering")
    }
}
