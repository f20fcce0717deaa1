import Foundation

/// ``PeakLimiter`` on a stream: the same gains, sample for sample, from blocks of any size, holding
/// only the look-ahead (a few milliseconds) instead of the whole chapter. Each sample's held gain
/// is the least need over it and the `window − 1` samples after it, found with a monotonic queue as
/// those samples arrive; output lags input by the window and ``finish()`` flushes it (the samples
/// after the end need nothing, as in the whole-array pass).
struct StreamingPeakLimiter {
    private let gain: Float
    private let ceiling: Float
    private let scale: Float
    private let window: Int
    private let release: Float
    /// Input samples not yet output, oldest first, and how many samples came in before them.
    private var pending: [Int16] = []
    private var pendingStart = 0
    private var received = 0
    /// (need, index) with needs increasing from the head: the least need in the window is at `head`.
    private var queue: [(need: Float, index: Int)] = []
    private var head = 0
    /// The last `window` held gains (a ring by sample index) and their sum, for the smoothing mean.
    private var held: [Float]
    /// `emitted % window`, kept as a counter: a division per sample was a fifth of the limiter's time.
    private var slot = 0
    private var sum = 0.0
    private var applied: Float = 1
    private var emitted = 0

    init(gain: Float, ceiling: Float, sampleRate: Int) {
        self.gain = gain
        self.ceiling = ceiling
        scale = gain / 32768
        window = max(1, Int(Double(sampleRate) * PeakLimiter.lookAheadMs / 1000))
        release = Float(1 - exp(-1 / (Double(sampleRate) * PeakLimiter.releaseMs / 1000)))
        held = [Float](repeating: 1, count: window)
    }

    /// Takes `samples` and returns the output samples now known (the input delayed by the window).
    mutating func process(_ samples: ArraySlice<Int16>) -> [Int16] {
        var output: [Int16] = []
        output.reserveCapacity(samples.count)
        pending.append(contentsOf: samples)
        for sample in samples {
            let level = abs(Float(sample) * scale)
            push(need: level > ceiling ? ceiling / level : 1, into: &output)
        }
        compact()
        return output
    }

    /// The output still held back: the last window of samples, with nothing after them to limit.
    mutating func finish() -> [Int16] {
        var output: [Int16] = []
        while emitted < received { push(need: 1, into: &output, virtual: true) }
        return output
    }

    /// Adds the need of sample `received` (a virtual one past the end when `virtual`), and outputs
    /// the sample whose window it completes.
    private mutating func push(need: Float, into output: inout [Int16], virtual: Bool = false) {
        let index = virtual ? received + (emitted + window - 1 - received) : received
        while queue.count > head, queue[queue.count - 1].need >= need { queue.removeLast() }
        queue.append((need, index))
        if !virtual { received += 1 }
        let ready = index - (window - 1)
        guard ready >= 0 else { return }
        while queue[head].index < ready { head += 1 }
        emit(ready, heldGain: queue[head].need, into: &output)
        if head > 4096 {
            queue.removeFirst(head)
            head = 0
        }
    }

    private mutating func emit(_ index: Int, heldGain: Float, into output: inout [Int16]) {
        sum += Double(heldGain)
        if index >= window { sum -= Double(held[slot]) }
        held[slot] = heldGain
        slot = slot + 1 == window ? 0 : slot + 1
        let smooth = Float(index >= window - 1 ? sum / Double(window) : sum / Double(index + 1))
        applied = min(smooth, applied + (1 - applied) * release)
        let sample = pending[index - pendingStart]
        let value = Self.rounded(Float(sample) * gain * applied)
        output.append(Int16(max(-32768, min(32767, value))))
        emitted = index + 1
    }

    /// `value.rounded()` (half away from zero) without libm's call: below 2^22 the whole part is
    /// exact in a Float and so is the remainder, so comparing the remainder with ½ gives the same
    /// result; larger values (none a limiter makes) take the library's rounding.
    @inline(__always)
    static func rounded(_ value: Float) -> Float {
        let magnitude = value.magnitude
        guard magnitude < 4_194_304 else { return value.rounded() }
        var whole = Float(Int32(magnitude))
        if magnitude - whole >= 0.5 { whole += 1 }
        return value.sign == .minus ? -whole : whole
    }

    /// Drops output samples from the pending input once enough have gone.
    private mutating func compact() {
        let done = emitted - pendingStart
        if done > 65_536 {
            pending.removeFirst(done)
            pendingStart = emitted
        }
    }
}
