import Foundation

/// Masters a chapter's audio to ``MasteringSettings``: measures its integrated loudness, applies
/// the gain that reaches the target (held under the RMS bound), and limits peaks under the
/// ceilings; the result is measured again and the gain or the ceiling corrected, a few times at
/// most, since limiting lowers loudness a little and inter-sample peaks can rise above the
/// sample ceiling. (Room tone at the head and tail is laid out by the chapter timeline.)
enum Mastering {
    /// Loudness this close to the target is reached: a tenth of what a listener notices between
    /// chapters (about 1 LU; EBU R128 allows ±1 LU), and a pass fewer for most chapters than 0.15.
    static let tolerance = 0.3
    static let passes = 8

    /// Audio that can be played into a sink as often as asked: a chapter rendered block by block
    /// from the store, or an array.
    typealias Sink = (ArraySlice<Int16>) throws -> Void
    typealias Source = (@escaping Sink) throws -> Void

    static func master(_ samples: [Int16], sampleRate: Int, settings: MasteringSettings) throws -> [Int16] {
        var output: [Int16] = []
        output.reserveCapacity(samples.count)
        try master(
            { sink in try sink(samples[...]) }, sampleRate: sampleRate, settings: settings,
            emit: { output.append(contentsOf: $0) })
        return output
    }

    /// Masters `source` into `emit`, block by block: every pass plays the source again (through the
    /// limiter into the meter), so memory holds a block and the limiter's look-ahead, never the
    /// chapter — a 3-hour chapter is mastered in the memory of a minute. The result is the same,
    /// sample for sample, as mastering the whole array.
    static func master(
        _ source: @escaping Source, sampleRate: Int, settings: MasteringSettings, emit: @escaping Sink
    ) throws {
        let before = try measure(source, sampleRate: sampleRate, measuring: .loudness)
        guard before.count > 0 else { return }
        guard before.integrated.isFinite else {
            try source(emit)
            return
        }
        var gainDB = settings.integratedLoudness - before.integrated
        if let maximum = settings.maximumRMS, before.rms + gainDB > maximum { gainDB = maximum - before.rms }
        var ceilingDB = min(settings.samplePeakCeiling ?? 0, settings.truePeakCeiling - 0.5)
        func limited(_ gain: Double, _ ceiling: Double) -> Source {
            { sink in
                let limiter = StreamingPeakLimiter(
                    gain: Float(pow(10, gain / 20)), ceiling: Float(pow(10, ceiling / 20)), sampleRate: sampleRate)
                try source { block in
                    let output = limiter.process(block)
                    if !output.isEmpty { try sink(output[...]) }
                }
                let rest = limiter.finish()
                if !rest.isEmpty { try sink(rest[...]) }
            }
        }
        // Limiting absorbs part of each gain step, so the gain is found by secant steps on
        // measured loudness (a first step assumes it all arrives).
        var previous: (gain: Double, loudness: Double)?
        for _ in 0..<passes {
            // Passes measure loudness alone (true peaks need 4× oversampling, most of a pass's cost);
            // once the loudness is reached, one pass measures that audio's true peaks: at 22.05 kHz
            // speech's inter-sample peaks stand up to 2 dB above its samples, so the sample ceiling
            // may have to come down (and the loudness be found again).
            let after = try measure(limited(gainDB, ceilingDB), sampleRate: sampleRate, measuring: .loudness)
            let short = settings.integratedLoudness - after.integrated
            let headroom = settings.maximumRMS.map { $0 - after.rms } ?? .infinity
            if abs(short) > tolerance, after.integrated.isFinite, headroom > 0.05 || short < 0 {
                var slope = 1.0
                var step: Double?
                if let previous, abs(gainDB - previous.gain) > 0.01 {
                    slope = min(1, max(0.1, (after.integrated - previous.loudness) / (gainDB - previous.gain)))
                } else if gainDB > 0.5 {
                    // The first step: from the unlimited loudness and this pass's, the limiter's loss.
                    slope = min(1, max(0.1, (after.integrated - before.integrated) / gainDB))
                    step = Self.firstStep(
                        gain: gainDB, loss: gainDB - (after.integrated - before.integrated),
                        rise: settings.integratedLoudness - before.integrated
                    )
                    .map { $0 - gainDB }
                }
                previous = (gainDB, after.integrated)
                gainDB += min(step ?? short / slope, headroom / slope, 12)
                continue
            }
            let peak = try measure(limited(gainDB, ceilingDB), sampleRate: sampleRate, measuring: .truePeak).truePeak
            if peak > settings.truePeakCeiling {
                ceilingDB -= peak - settings.truePeakCeiling + 0.05
                continue
            }
            // The pass met the settings: play it once more, into the output.
            return try limited(gainDB, ceilingDB)(emit)
        }
        // Out of passes while still adjusting: the last gain and ceiling, and the ceiling holds.
        let peak = try measure(limited(gainDB, ceilingDB), sampleRate: sampleRate, measuring: .truePeak).truePeak
        if peak > settings.truePeakCeiling { ceilingDB -= peak - settings.truePeakCeiling + 0.05 }
        try limited(gainDB, ceilingDB)(emit)
    }

    /// How the loudness a limiter takes grows with gain: as a power of the gain, `loss(g) = loss₁ ·
    /// (g / g₁)^exponent`. Measured on the corpus's chapters mastered to ACX (espeak-ng, 22.05 kHz):
    /// the loss at three gains of each chapter gives 1.44–1.45; a step sized by it reaches the target
    /// in one more pass where the secant (which sees the loss's growth only afterwards) took two.
    static let lossExponent = 1.45

    /// The gain whose loudness rise, less the limiter's loss as it grows from `loss` at `gain`,
    /// is `rise`; nil when the limiter takes too much for any gain to make it (then the secant).
    static func firstStep(gain: Double, loss: Double, rise: Double) -> Double? {
        guard loss > 0.05, rise > gain - loss else { return nil }
        func reached(_ g: Double) -> Double { g - loss * pow(g / gain, lossExponent) }
        // reached() rises up to where its derivative is 0, then falls: search below that point.
        let top = min(gain + 12, gain * pow(gain / (lossExponent * loss), 1 / (lossExponent - 1)))
        guard top > gain, reached(top) >= rise else { return nil }
        var (low, high) = (gain, top)
        for _ in 0..<40 {
            let middle = (low + high) / 2
            if reached(middle) < rise { low = middle } else { high = middle }
        }
        return high
    }

    private static func measure(
        _ source: @escaping Source, sampleRate: Int, measuring measures: LoudnessMeter.Measures
    ) throws -> (integrated: Double, truePeak: Double, rms: Double, count: Int) {
        let meter = try LoudnessMeter(sampleRate: sampleRate, measuring: measures)
        // Squares summed as integers: exact, so the blocks a source plays in cannot change the result.
        final class Totals {
            var squares = 0
            var count = 0
        }
        let totals = Totals()
        try source { block in
            meter.add(block)
            var squares = 0
            for sample in block { squares += Int(sample) * Int(sample) }
            totals.squares += squares
            totals.count += block.count
        }
        let (sum, count) = (Double(totals.squares), totals.count)
        let meanSquare = sum / Double(max(1, count)) / (32768.0 * 32768.0)
        return (
            measures == .truePeak ? -.infinity : meter.integratedLoudness,
            measures == .loudness ? -.infinity : meter.truePeak, meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity,
            count
        )
    }
}
