/// Converts the synthesizer's sample rate to the recipe's, by linear interpolation after a
/// short moving-average low-pass when downsampling. Adequate for speech; the identity when
/// the rates match, which is the default.
public enum Resampler {
    public static func resample(_ samples: [Int16], from sourceRate: Int, to targetRate: Int) -> [Int16] {
        guard sourceRate != targetRate, !samples.isEmpty, sourceRate > 0, targetRate > 0 else { return samples }
        var input = samples.map(Double.init)
        if targetRate < sourceRate {
            let width = max(1, Int((Double(sourceRate) / Double(targetRate)).rounded()))
            if width > 1 {
                var filtered = input
                var sum = 0.0
                for index in input.indices {
                    sum += input[index]
                    if index >= width { sum -= input[index - width] }
                    filtered[index] = sum / Double(min(index + 1, width))
                }
                input = filtered
            }
        }
        let count = Int((Int64(samples.count) * Int64(targetRate)) / Int64(sourceRate))
        var output = [Int16](repeating: 0, count: max(1, count))
        let step = Double(sourceRate) / Double(targetRate)
        for index in output.indices {
            let position = Double(index) * step
            let lower = min(Int(position), input.count - 1)
            let upper = min(lower + 1, input.count - 1)
            let fraction = position - Double(lower)
            let value = input[lower] * (1 - fraction) + input[upper] * fraction
            output[index] = Int16(clamping: Int(value.rounded()))
        }
        return output
    }
}
