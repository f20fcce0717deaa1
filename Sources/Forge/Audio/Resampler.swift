import CSoxr

/// Sample-rate conversion with libsoxr: band-limited (high quality, 20-bit, linear phase), so
/// nothing above the new Nyquist folds back into the band — the recognizer and every output at a
/// rate other than the engine's hear the speech, not aliases of it. Fed in blocks: memory holds
/// one block beside the output. Without dither, so the same input always gives the same bytes
/// (objects are content-addressed).
///
/// One instance converts one stream, on one thread at a time; it is not `Sendable`.
package final class Resampler {
    /// Part of every key whose object a resampler may have shaped: change it when output changes.
    package static let identity = "soxr-\(String(cString: soxr_version()))-hq-nodither"
    /// Samples handed to libsoxr per call.
    static let blockFrames = 1 << 16

    private let handle: soxr_t
    package let sourceRate: Int
    package let targetRate: Int

    /// A resampler from `sourceRate` to `targetRate` (both positive, which recipes and decoders guarantee).
    package init(from sourceRate: Int, to targetRate: Int) {
        precondition(sourceRate > 0 && targetRate > 0, "sample rates are positive")
        self.sourceRate = sourceRate
        self.targetRate = targetRate
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
        io.flags = UInt(SOXR_NO_DITHER)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var runtime = soxr_runtime_spec(1)
        let created = soxr_create(Double(sourceRate), Double(targetRate), 1, &error, &io, &quality, &runtime)
        // soxr_create fails only for invalid rates or channel counts, which the precondition rules out.
        guard let created, error == nil else {
            preconditionFailure("libsoxr refused \(sourceRate) → \(targetRate) Hz: \(String(cString: error!))")
        }
        handle = created
    }

    deinit { soxr_delete(handle) }

    /// Converts the next stretch of the stream, appending what is ready to `output`.
    package func process(_ input: ArraySlice<Int16>, into output: inout [Int16]) {
        var start = input.startIndex
        while start < input.endIndex {
            let end = min(start + Self.blockFrames, input.endIndex)
            input[start..<end].withUnsafeBufferPointer { block in
                var used = 0
                var offset = 0
                while offset < block.count {
                    let done = drain(
                        block.baseAddress! + offset, count: block.count - offset, into: &output, used: &used)
                    offset += used
                    if used == 0 && done == 0 { break }
                }
            }
            start = end
        }
    }

    /// Ends the stream: appends what libsoxr still holds (its filter's delay).
    package func finish(into output: inout [Int16]) {
        var used = 0
        while drain(nil, count: 0, into: &output, used: &used) > 0 {}
    }

    /// One `soxr_process` call with room for everything `count` input samples can give.
    private func drain(_ input: UnsafePointer<Int16>?, count: Int, into output: inout [Int16], used: inout Int) -> Int {
        let room =
            Int((Double(max(count, Self.blockFrames / 4)) * Double(targetRate) / Double(sourceRate)).rounded(.up)) + 64
        let before = output.count
        output.append(contentsOf: repeatElement(0, count: room))
        var consumed = 0
        var produced = 0
        output.withUnsafeMutableBufferPointer { buffer in
            _ = soxr_process(handle, input, count, &consumed, buffer.baseAddress! + before, room, &produced)
        }
        output.removeLast(room - produced)
        used = consumed
        return produced
    }

    /// `samples` at `targetRate`: exactly `count × targetRate / sourceRate` samples (rounded
    /// down), the identity when the rates match.
    package static func resample(_ samples: [Int16], from sourceRate: Int, to targetRate: Int) -> [Int16] {
        resample(samples[...], from: sourceRate, to: targetRate)
    }

    package static func resample(_ samples: ArraySlice<Int16>, from sourceRate: Int, to targetRate: Int) -> [Int16] {
        guard sourceRate != targetRate, !samples.isEmpty, sourceRate > 0, targetRate > 0 else { return Array(samples) }
        let count = Int(Int64(samples.count) * Int64(targetRate) / Int64(sourceRate))
        var output: [Int16] = []
        output.reserveCapacity(count + 64)
        let resampler = Resampler(from: sourceRate, to: targetRate)
        resampler.process(samples, into: &output)
        resampler.finish(into: &output)
        if output.count > count { output.removeLast(output.count - count) }
        if output.count < count { output.append(contentsOf: repeatElement(0, count: count - output.count)) }
        return output
    }
}
