/// ``RecognizerInput``'s conversion to 16 kHz, fed a block at a time: the same samples as
/// converting the whole recording at once, holding only a few input samples between blocks.
///
/// One stream converts one recording, on one task at a time; it is not `Sendable`.
final class RecognizerInputStream {
    private let sourceRate: Int
    private let step: Double
    private let width: Int
    private let identity: Bool
    /// Input not yet wholly used, starting at input index `bufferStart`.
    private var buffer: [Int16] = []
    private var bufferStart = 0
    /// The next output sample's index.
    private var next = 0
    private var inputCount = 0

    init(sourceRate: Int) {
        let targetRate = PocketSphinxDecoder.sampleRate
        self.sourceRate = sourceRate
        identity = sourceRate == targetRate
        step = Double(sourceRate) / Double(targetRate)
        width = targetRate < sourceRate ? max(1, Int((Double(sourceRate) / Double(targetRate)).rounded())) : 1
    }

    /// The output the next block of input makes ready.
    func process(_ input: [Int16]) -> [Int16] {
        inputCount += input.count
        guard !identity else { return input }
        buffer += input
        return drain(final: false)
    }

    /// The output still owed at the end of the recording.
    func finish() -> [Int16] {
        identity ? [] : drain(final: true)
    }

    private func drain(final: Bool) -> [Int16] {
        // The whole recording gives max(1, count × 16000 / rate) samples (RecognizerInput); no
        // more than the input so far would give are made before the end.
        let total = max(1, Int(Int64(inputCount) * Int64(PocketSphinxDecoder.sampleRate) / Int64(sourceRate)))
        let last = inputCount - 1
        let (step, width, bufferStart) = (self.step, self.width, self.bufferStart)
        var next = self.next
        var output: [Int16] = []
        output.reserveCapacity(max(0, total - next))
        // Read through one pointer, in locals: this runs for every sample of a recording hours
        // long, and each access to a property of the class is checked for exclusivity.
        buffer.withUnsafeBufferPointer { buffer in
            // The moving average of `width` input samples ending at input index `index`.
            func averaged(_ index: Int) -> Double {
                let first = max(0, index - width + 1)
                var sum = 0.0
                for position in first...index { sum += Double(buffer[position - bufferStart]) }
                return sum / Double(index - first + 1)
            }
            while next < total {
                let position = Double(next) * step
                let lower = min(Int(position), last)
                let upper = min(lower + 1, last)
                // Wait for the sample after `lower` unless the recording has ended.
                if !final && lower + 1 > last { break }
                let fraction = position - Double(lower)
                let value = averaged(lower) * (1 - fraction) + averaged(upper) * fraction
                output.append(Int16(clamping: Int(value.rounded())))
                next += 1
            }
        }
        self.next = next
        // Keep what the next samples' moving averages still reach back to.
        let keepFrom = max(bufferStart, min(Int(Double(next) * step), last) - width)
        if keepFrom > bufferStart {
            buffer.removeFirst(keepFrom - bufferStart)
            self.bufferStart = keepFrom
        }
        return output
    }
}
