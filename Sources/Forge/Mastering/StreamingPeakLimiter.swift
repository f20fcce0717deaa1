import Foundation

/// ``PeakLimiter`` on a stream: the same gains, sample for sample, from blocks of any size, holding
/// only the look-ahead (a few milliseconds) instead of the whole chapter. Each sample's held gain
/// is the least need over it and the `window − 1` samples after it, found with a monotonic queue as
/// those samples arrive; output lags input by the window and ``finish()`` flushes it (the samples
/// after the end need nothing, as in the whole-array pass).
///
/// Every pass of mastering runs the whole chapter through a limiter, so its loop is kept free of
/// array bookkeeping: the queue, the held gains and the delayed input are fixed rings allocated
/// once, and a block's loop works on a copy of the running state.
final class StreamingPeakLimiter {
    private let gain: Float
    private let ceiling: Float
    private let scale: Float
    private let window: Int
    private let release: Float
    /// The rings' size less one: a power of two above `window + 1`, the most the queue holds.
    private let mask: Int
    /// The monotonic queue of (need, index), needs increasing from its head.
    private let needs: UnsafeMutablePointer<Float>
    private let indices: UnsafeMutablePointer<Int>
    /// The input not yet output, by sample index.
    private let inputs: UnsafeMutablePointer<Int16>
    /// The last `window` held gains, by `slot`, for the smoothing mean.
    private let held: UnsafeMutablePointer<Float>
    private var state = State()

    private struct State {
        /// The queue's live entries are `head..<tail` (taken modulo the ring).
        var head = 0
        var tail = 0
        var received = 0
        var emitted = 0
        /// `emitted % window`, kept as a counter: a division per sample was a fifth of the limiter's time.
        var slot = 0
        var sum = 0.0
        var applied: Float = 1
    }

    init(gain: Float, ceiling: Float, sampleRate: Int) {
        self.gain = gain
        self.ceiling = ceiling
        scale = gain / 32768
        window = max(1, Int(Double(sampleRate) * PeakLimiter.lookAheadMs / 1000))
        release = Float(1 - exp(-1 / (Double(sampleRate) * PeakLimiter.releaseMs / 1000)))
        var size = 1
        while size < window + 2 { size *= 2 }
        mask = size - 1
        needs = .allocate(capacity: size)
        indices = .allocate(capacity: size)
        inputs = .allocate(capacity: size)
        held = .allocate(capacity: window)
        held.initialize(repeating: 1, count: window)
    }

    deinit {
        needs.deallocate()
        indices.deallocate()
        inputs.deallocate()
        held.deallocate()
    }

    /// Takes `samples` and returns the output samples now known (the input delayed by the window).
    func process(_ samples: ArraySlice<Int16>) -> [Int16] {
        var running = state
        let count = max(0, running.received + samples.count - (window - 1)) - running.emitted
        let output = [Int16](unsafeUninitializedCapacity: max(1, count)) { buffer, initialized in
            var written = 0
            samples.withUnsafeBufferPointer { input in
                for sample in input {
                    let index = running.received
                    inputs[index & mask] = sample
                    running.received += 1
                    let level = abs(Float(sample) * scale)
                    push(level > ceiling ? ceiling / level : 1, at: index, &running, into: buffer, &written)
                }
            }
            initialized = written
        }
        state = running
        return output
    }

    /// The output still held back: the last window of samples, with nothing after them to limit.
    func finish() -> [Int16] {
        var running = state
        let output = [Int16](unsafeUninitializedCapacity: max(1, running.received - running.emitted)) {
            buffer, initialized in
            var written = 0
            while running.emitted < running.received {
                push(1, at: running.emitted + window - 1, &running, into: buffer, &written)
            }
            initialized = written
        }
        state = running
        return output
    }

    /// Adds the need of sample `index` (a virtual one past the end in ``finish()``), and outputs the
    /// sample whose window it completes.
    @inline(__always)
    private func push(
        _ need: Float, at index: Int, _ running: inout State, into output: UnsafeMutableBufferPointer<Int16>,
        _ written: inout Int
    ) {
        while running.tail > running.head, needs[(running.tail - 1) & mask] >= need { running.tail -= 1 }
        needs[running.tail & mask] = need
        indices[running.tail & mask] = index
        running.tail += 1
        let ready = index - (window - 1)
        guard ready >= 0 else { return }
        while indices[running.head & mask] < ready { running.head += 1 }
        let heldGain = needs[running.head & mask]
        running.sum += Double(heldGain)
        if ready >= window { running.sum -= Double(held[running.slot]) }
        held[running.slot] = heldGain
        running.slot = running.slot + 1 == window ? 0 : running.slot + 1
        let smooth = Float(ready >= window - 1 ? running.sum / Double(window) : running.sum / Double(ready + 1))
        running.applied = min(smooth, running.applied + (1 - running.applied) * release)
        let value = Self.rounded(Float(inputs[ready & mask]) * gain * running.applied)
        output[written] = Int16(max(-32768, min(32767, value)))
        written += 1
        running.emitted = ready + 1
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
}
