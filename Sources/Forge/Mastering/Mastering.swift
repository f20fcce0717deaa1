import Foundation

/// Masters a chapter's audio to ``MasteringSettings``: measures its integrated loudness, applies
/// the gain that reaches the target (held under the RMS bound), and limits peaks under the
/// ceilings; the result is measured again and the gain or the ceiling corrected, a few times at
/// most, since limiting lowers loudness a little and inter-sample peaks can rise above the
/// sample ceiling. (Room tone at the head and tail is laid out by the chapter timeline.)
enum Mastering {
    /// Loudness this close to the target is reached.
    static let tolerance = 0.15
    static let passes = 8

    static func master(_ samples: [Int16], sampleRate: Int, settings: MasteringSettings) throws(MasteringError) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        let input = samples
        let before = try measure(input, sampleRate: sampleRate, peaks: false)
        guard before.integrated.isFinite else { return samples }
        var gainDB = settings.integratedLoudness - before.integrated
        if let maximum = settings.maximumRMS, before.rms + gainDB > maximum { gainDB = maximum - before.rms }
        var ceilingDB = min(settings.samplePeakCeiling ?? 0, settings.truePeakCeiling - 0.5)
        var output = input
        // Limiting absorbs part of each gain step, so the gain is found by secant steps on
        // measured loudness (a first step assumes it all arrives).
        var previous: (gain: Double, loudness: Double)?
        for _ in 0..<passes {
            output = PeakLimiter.apply(input, gain: Float(pow(10, gainDB / 20)), ceiling: Float(pow(10, ceilingDB / 20)), sampleRate: sampleRate)
            // Each pass measures true peaks too: at 22.05 kHz speech's inter-sample peaks stand up to
            // 2 dB above its samples, so the sample ceiling is found together with the gain.
            let after = try measure(output, sampleRate: sampleRate, peaks: true)
            var adjusted = false
            if after.truePeak > settings.truePeakCeiling {
                ceilingDB -= after.truePeak - settings.truePeakCeiling + 0.05
                adjusted = true
            }
            let short = settings.integratedLoudness - after.integrated
            let headroom = settings.maximumRMS.map { $0 - after.rms } ?? .infinity
            if abs(short) > tolerance, after.integrated.isFinite, headroom > 0.05 || short < 0 {
                var slope = 1.0
                if let previous, abs(gainDB - previous.gain) > 0.01 {
                    slope = min(1, max(0.1, (after.integrated - previous.loudness) / (gainDB - previous.gain)))
                }
                previous = (gainDB, after.integrated)
                gainDB += min(short / slope, headroom / slope, 12)
                adjusted = true
            }
            if !adjusted { return output }
        }
        // Out of passes while still adjusting: the last gain and ceiling, and the ceiling holds.
        output = PeakLimiter.apply(input, gain: Float(pow(10, gainDB / 20)), ceiling: Float(pow(10, ceilingDB / 20)), sampleRate: sampleRate)
        let peak = try measure(output, sampleRate: sampleRate, peaks: true).truePeak
        if peak > settings.truePeakCeiling {
            ceilingDB -= peak - settings.truePeakCeiling + 0.05
            output = PeakLimiter.apply(input, gain: Float(pow(10, gainDB / 20)), ceiling: Float(pow(10, ceilingDB / 20)), sampleRate: sampleRate)
        }
        return output
    }

    private static func measure(_ samples: [Int16], sampleRate: Int, peaks: Bool = true) throws(MasteringError) -> (integrated: Double, truePeak: Double, rms: Double) {
        let meter = try LoudnessMeter(sampleRate: sampleRate, peaks: peaks)
        meter.add(samples[...])
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        let meanSquare = sum / Double(max(1, samples.count)) / (32768.0 * 32768.0)
        return (meter.integratedLoudness, peaks ? meter.truePeak : -.infinity, meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity)
    }
}
