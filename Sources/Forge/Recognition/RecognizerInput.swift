/// Audio as pocketsphinx hears it: 16 kHz, by linear interpolation after a moving average as wide
/// as the rate ratio (rounded). Not a general resampler — audio people hear goes through
/// ``Resampler`` (libsoxr, band-limited) — but the conversion this acoustic model recognizes
/// espeak-ng speech best from: measured on the sample book, verification heard 6.2% word errors
/// with it against 9.4% with libsoxr's high-quality filter (11.7% decoding 22,050 Hz directly),
/// and forced alignment placed 96.0% of words within 50 ms against 95.4%.
///
/// Reads the input in place: no copy of a whole recording as `Double`s.
enum RecognizerInput {
    static func samples(_ samples: ArraySlice<Int16>, from sourceRate: Int) -> [Int16] {
        let targetRate = PocketSphinxDecoder.sampleRate
        guard sourceRate != targetRate, !samples.isEmpty, sourceRate > 0 else { return Array(samples) }
        let base = samples.startIndex
        let width = targetRate < sourceRate ? max(1, Int((Double(sourceRate) / Double(targetRate)).rounded())) : 1
        /// The moving average ending at `index` (relative to the slice).
        func averaged(_ index: Int) -> Double {
            let first = max(0, index - width + 1)
            var sum = 0.0
            for position in first...index { sum += Double(samples[base + position]) }
            return sum / Double(index - first + 1)
        }
        let count = max(1, Int((Int64(samples.count) * Int64(targetRate)) / Int64(sourceRate)))
        var output = [Int16](repeating: 0, count: count)
        let step = Double(sourceRate) / Double(targetRate)
        for index in output.indices {
            let position = Double(index) * step
            let lower = min(Int(position), samples.count - 1)
            let upper = min(lower + 1, samples.count - 1)
            let fraction = position - Double(lower)
            let value = averaged(lower) * (1 - fraction) + averaged(upper) * fraction
            output[index] = Int16(clamping: Int(value.rounded()))
        }
        return output
    }
}
