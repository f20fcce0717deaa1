import Foundation

/// Masters a chapter's audio to ``MasteringSettings``: measures its integrated loudness, applies
/// the gain that reaches the target (held under the RMS bound), and limits peaks under the
/// ceilings. (Room tone at the head and tail is laid out by the chapter timeline.)
///
/// The limiter is scale-invariant: with gain g and ceiling c (in dB) its output is c times its
/// output at gain g − c and ceiling 0 dBFS, so the loudness, the RMS and the true peak less the
/// ceiling depend on the drive g − c alone. One pass at a drive, measuring loudness and true peak
/// together, tells the ceiling that keeps that drive's inter-sample peaks under the true-peak
/// ceiling and so the loudness the drive reaches; the drive is searched, a few passes at most, and
/// the last pass plays into the output at that drive and ceiling.
enum Mastering {
    /// Loudness this close to the target is reached: a tenth of what a listener notices between
    /// chapters (about 1 LU; EBU R128 allows ±1 LU), and a pass fewer for most chapters than 0.15.
    static let tolerance = 0.3
    static let passes = 8
    /// Kept below the true-peak ceiling for the rounding to 16 bits, which scale invariance leaves out.
    static let truePeakMargin = 0.05
    /// The RMS is aimed this far under its bound when the bound, not the loudness, decides the drive.
    static let rmsMargin = 0.05
    /// How audio is mastered: bump when the same settings would master it to other samples.
    static let method = "drive-search-1"

    /// What mastered audio depends on besides the audio, for the keys of what is made from it.
    static func identity(_ settings: MasteringSettings?) -> String {
        settings.map { "\(method)|\($0)" } ?? "unmastered"
    }

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
        guard before.integrated.isFinite, before.samplePeak.isFinite else {
            try source(emit)
            return
        }
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
        // Below the drive at which the loudest sample reaches the ceiling the limiter does nothing:
        // there the loudness is the unlimited loudness plus the drive.
        let engaged = -before.samplePeak
        var ceiling = min(
            settings.samplePeakCeiling ?? 0, settings.truePeakCeiling - truePeakMargin - expectedOvershoot)
        var drive = firstDrive(
            unlimited: settings.integratedLoudness - before.integrated - ceiling, engaged: engaged)
        var tried: [Pass] = []
        for _ in 0..<passes {
            let measured = try measure(
                limited(drive + ceiling, ceiling), sampleRate: sampleRate, measuring: .loudnessAndTruePeak)
            guard measured.integrated.isFinite, measured.truePeak.isFinite else { break }
            let pass = Pass(
                drive: drive, loudness: measured.integrated - ceiling, rms: measured.rms - ceiling,
                truePeak: measured.truePeak - ceiling)
            tried.append(pass)
            if pass.meets(settings) { break }
            ceiling = pass.ceiling(settings)
            drive = nextDrive(tried, settings: settings, unlimitedLoudness: before.integrated, engaged: engaged)
        }
        // The drive that met the settings, or else the best tried: its ceiling holds the peaks either way.
        let chosen =
            tried.first { $0.meets(settings) }
            ?? tried.filter { $0.rmsExcess(settings) <= 0 }.min { abs($0.excess(settings)) < abs($1.excess(settings)) }
            ?? tried.min { $0.objective(settings) < $1.objective(settings) }
        guard let chosen else { return try source(emit) }
        let chosenCeiling = chosen.ceiling(settings)
        try limited(chosen.drive + chosenCeiling, chosenCeiling)(emit)
    }

    /// The true peak of speech limited hard at 22.05 kHz stands this far above the ceiling (the
    /// first guess; each pass measures it).
    static let expectedOvershoot = 1.8
    /// The limiter's loss, LU, as the square of how far (dB) it is driven past engaging, times this:
    /// the first guess of how much further to drive than the loudness alone asks.
    static let expectedLossRate = 0.022

    /// The first drive to try: the one whose loudness, less the loss ``expectedLossRate`` expects,
    /// reaches the target (`unlimited` is the drive that would reach it without limiting). Speech
    /// mastered for ACX loses several LU to the limiter, and a first pass short of it finds the
    /// true peak rising with every step.
    static func firstDrive(unlimited: Double, engaged: Double) -> Double {
        guard unlimited > engaged else { return unlimited }
        let past = unlimited - engaged
        let discriminant = 1 - 4 * expectedLossRate * past
        guard discriminant > 0 else { return unlimited + 8 }
        return engaged + min(past + 8, (1 - discriminant.squareRoot()) / (2 * expectedLossRate))
    }

    /// The drive to try next: where a model of the tried passes reaches the target. The limiter's
    /// loss is ``LossModel``'s; the true peak and the RMS are the nearest pass's. The model's
    /// drive is kept inside the bracket the passes found; when it has none there, a secant step
    /// (or halving) inside the bracket, or a step of the shortfall, 12 dB at most.
    static func nextDrive(
        _ tried: [Pass], settings: MasteringSettings, unlimitedLoudness: Double, engaged: Double
    ) -> Double {
        guard let last = tried.last else { return 0 }
        let model = LossModel(tried, unlimitedLoudness: unlimitedLoudness, engaged: engaged)
        func modelled(_ drive: Double) -> Double {
            let nearest = tried.min { abs($0.drive - drive) < abs($1.drive - drive) } ?? last
            let loudness = unlimitedLoudness + drive - model.loss(atDrive: drive)
            let pass = Pass(
                drive: drive, loudness: loudness, rms: loudness + nearest.rms - nearest.loudness,
                truePeak: nearest.truePeak)
            return pass.objective(settings)
        }
        let values = tried.map { ($0.drive, $0.objective(settings)) }
        let below = values.filter { $0.1 < 0 }.max { $0.0 < $1.0 }
        let above = values.filter { $0.1 > 0 }.min { $0.0 < $1.0 }
        var (low, high) = (below?.0 ?? last.drive - 12, above?.0 ?? last.drive + 12)
        if low < high, modelled(low) <= 0, modelled(high) >= 0 {
            for _ in 0..<50 {
                let middle = (low + high) / 2
                if modelled(middle) < 0 { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }
        if let below, let above {
            let step = below.0 - below.1 * (above.0 - below.0) / (above.1 - below.1)
            let inside = min(below.0, above.0) + 0.01..<max(below.0, above.0) - 0.01
            return inside.contains(step) ? step : (below.0 + above.0) / 2
        }
        return last.drive + max(-12, min(12, -last.objective(settings)))
    }

    private static func measure(
        _ source: @escaping Source, sampleRate: Int, measuring measures: LoudnessMeter.Measures
    ) throws -> (integrated: Double, truePeak: Double, samplePeak: Double, rms: Double, count: Int) {
        let meter = try LoudnessMeter(sampleRate: sampleRate, measuring: measures)
        // Squares summed as integers: exact, so the blocks a source plays in cannot change the result.
        final class Totals {
            var squares = 0
            var peak = 0
            var count = 0
        }
        let totals = Totals()
        try source { block in
            meter.add(block)
            var squares = 0
            var peak = totals.peak
            for sample in block {
                let value = Int(sample)
                squares += value * value
                peak = max(peak, abs(value))
            }
            totals.squares += squares
            totals.peak = peak
            totals.count += block.count
        }
        let (sum, count) = (Double(totals.squares), totals.count)
        let meanSquare = sum / Double(max(1, count)) / (32768.0 * 32768.0)
        return (
            meter.integratedLoudness,
            measures == .loudness ? -.infinity : meter.truePeak,
            LoudnessMeter.decibels(Double(totals.peak) / 32768),
            meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity,
            count
        )
    }
}
