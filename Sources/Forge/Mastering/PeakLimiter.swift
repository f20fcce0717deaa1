import Foundation

/// A look-ahead peak limiter: no output sample exceeds the ceiling, and the gain moves smoothly.
///
/// Each sample needs a gain of at most ceiling / |x|. The gain applied to a sample is the mean,
/// over a look-ahead window, of the windowed minimum of those needs — so it has already ramped down
/// when a peak arrives and is never above what any sample in reach needs — then recovers no faster
/// than the release allows.
struct PeakLimiter {
    /// Look-ahead and attack, and the release (time to recover about 63% of a reduction).
    static let lookAheadMs = 5.0
    static let releaseMs = 40.0

    /// `samples` (full scale ±1) times `gain`, limited to `ceiling` (linear, full scale 1).
    static func apply(_ samples: [Float], gain: Float, ceiling: Float, sampleRate: Int) -> [Float] {
        let count = samples.count
        guard count > 0 else { return [] }
        let window = max(1, Int(Double(sampleRate) * lookAheadMs / 1000))
        let release = Float(1 - exp(-1 / (Double(sampleRate) * releaseMs / 1000)))
        // needs[i]: the most gain sample i can take.
        var needs = [Float](repeating: 1, count: count)
        for index in 0..<count {
            let level = abs(samples[index] * gain)
            if level > ceiling { needs[index] = ceiling / level }
        }
        // held[j] = min(needs[j…j+window−1]), by a monotonic queue walking backwards.
        var held = [Float](repeating: 1, count: count)
        var queue: [Int] = []
        var head = 0
        var index = count - 1
        while index >= 0 {
            while queue.count > head, needs[queue[queue.count - 1]] >= needs[index] { queue.removeLast() }
            queue.append(index)
            if queue[head] > index + window - 1 { head += 1 }
            held[index] = needs[queue[head]]
            if head > 4096 { queue.removeFirst(head); head = 0 }
            index -= 1
        }
        // smooth[i] = mean(held[i−window+1…i]): every term covers sample i, so smooth[i] ≤ needs[i].
        var output = [Float](repeating: 0, count: count)
        var sum = 0.0
        var applied: Float = 1
        for index in 0..<count {
            sum += Double(held[index])
            if index >= window { sum -= Double(held[index - window]) }
            let smooth = Float(index >= window - 1 ? sum / Double(window) : sum / Double(index + 1))
            // Recover slowly; never above what the window allows.
            applied = min(smooth, applied + (1 - applied) * release)
            output[index] = samples[index] * gain * min(applied, needs[index])
        }
        return output
    }
}
