import Foundation

/// A look-ahead peak limiter: no output sample exceeds the ceiling, and the gain moves smoothly.
///
/// Each sample needs a gain of at most ceiling / |x|. The gain applied to a sample is the mean,
/// over a look-ahead window, of the windowed minimum of those needs — so it has already ramped down
/// when a peak arrives and is never above what any sample in reach needs — then recovers no faster
/// than the release allows. It keeps one array of gains beside its input and output (16-bit),
/// 8 bytes a sample in all.
struct PeakLimiter {
    /// Look-ahead and attack, and the release (time to recover about 63% of a reduction).
    static let lookAheadMs = 5.0
    static let releaseMs = 40.0

    /// `samples` times `gain`, limited to `ceiling` (linear, full scale 1), as 16-bit samples.
    static func apply(_ samples: [Int16], gain: Float, ceiling: Float, sampleRate: Int) -> [Int16] {
        let count = samples.count
        guard count > 0 else { return [] }
        let window = max(1, Int(Double(sampleRate) * lookAheadMs / 1000))
        let release = Float(1 - exp(-1 / (Double(sampleRate) * releaseMs / 1000)))
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
            if head > 4096 { queue.removeFirst(head); head = 0 }
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
}
