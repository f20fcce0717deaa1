import Foundation

/// What one item's audio measures, from one pass over its samples in 10 ms frames: the figures the
/// quick check judges an item by (``ItemScreen``), a thousandth of the cost of transcribing it.
package struct ItemSignal: Sendable, Equatable, Codable {
    /// A frame at least this loud (dBFS, RMS) counts as sound; quieter ones as a pause.
    static let activeLevel = -45.0
    /// A sample at or beyond this magnitude counts as clipped.
    static let clipMagnitude: Int16 = 32_700

    package var durationMs: Int
    /// Milliseconds of frames louder than ``activeLevel``.
    package var activeMs: Int
    /// The median level of the sounding frames, dBFS.
    package var levelDb: Double
    /// The median share of sign changes between samples in a sounding frame: about 0.05-0.14 for
    /// speech (voices differ; one voice's items within ±15% of each other), about 0.5 for white noise.
    package var zeroCrossingRate: Double
    /// The skewness of the frame-to-frame level change over sounding frames: speech rises fast
    /// and dies away slowly (negative skew, about -0.5 to -1 for espeak-ng's voices); played
    /// backwards it rises slowly and stops at once (positive).
    package var onsetSkew: Double
    /// Samples at or beyond ``clipMagnitude``.
    package var clippedSamples: Int
    package var sampleCount: Int

    package init(samples: some Collection<Int16>, sampleRate: Int) {
        let frame = max(1, sampleRate / 100)
        var levels: [Double] = []
        var crossings: [Double] = []
        levels.reserveCapacity(samples.count / frame + 1)
        var clipped = 0
        var sum = 0.0
        var changes = 0
        var count = 0
        var previous: Int16 = 0
        func close() {
            let rms = (sum / Double(max(count, 1))).squareRoot()
            levels.append(20 * log10((rms + 1) / 32_768))
            crossings.append(Double(changes) / Double(max(count, 1)))
            (sum, changes, count) = (0, 0, 0)
        }
        for sample in samples {
            let value = Double(sample)
            sum += value * value
            if (sample < 0) != (previous < 0) { changes += 1 }
            if sample >= Self.clipMagnitude || sample <= -Self.clipMagnitude { clipped += 1 }
            previous = sample
            count += 1
            if count == frame { close() }
        }
        if count > frame / 2 { close() }
        let active = levels.indices.filter { levels[$0] > Self.activeLevel }
        durationMs = samples.count * 1000 / max(sampleRate, 1)
        activeMs = active.count * 10
        sampleCount = samples.count
        clippedSamples = clipped
        levelDb = Self.median(active.map { levels[$0] }) ?? -100
        zeroCrossingRate = Self.median(active.map { crossings[$0] }) ?? 0
        let steps = zip(active, active.dropFirst()).map { levels[$1] - levels[$0] }
        onsetSkew = Self.skewness(steps)
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func skewness(_ values: [Double]) -> Double {
        guard values.count >= 3 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        var second = 0.0
        var third = 0.0
        for value in values {
            let deviation = value - mean
            second += deviation * deviation
            third += deviation * deviation * deviation
        }
        second /= Double(values.count)
        third /= Double(values.count)
        return second > 0 ? third / pow(second, 1.5) : 0
    }
}
