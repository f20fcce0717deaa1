import Foundation
import Synchronization

/// A reading's frames for ``ReadingWarp`` at any length, in a scratch file (unlinked as soon as it
/// is made, so nothing is left behind), with only their coarse averages (one for every ``factor``
/// frames, the factor doubled as the reading grows, so that they stay within a bound) held in
/// memory. A stretch is read back when the warp refines it, normalized as
/// ``ReadingWarp/Frames/init(cepstra:coefficients:)`` normalizes a whole reading. Made by a
/// ``Writer``; immutable once made but for its coarse frames, which the warp releases when done
/// with them (``releaseCoarse()``), and read with `pread`, so readings can be made side by side.
package final class FrameFile: Sendable {
    /// The most frames a coarse frame averages (``ReadingWarp``'s blocks overlap by a multiple of it).
    package static let largestFactor = 2_048
    /// Frames averaged into one coarse frame: a power of two.
    package let factor: Int
    package let dimension: Int
    /// Frames in the file.
    package let count: Int
    /// The coarse frames, normalized; none once released.
    package var coarse: ReadingWarp.Frames {
        coarseFrames.withLock { $0 } ?? ReadingWarp.Frames(values: [], dimension: dimension)
    }
    private let coarseFrames: Mutex<ReadingWarp.Frames?>
    private let descriptor: Int32
    private let mean: [Float]
    private let scale: [Float]

    /// Writes frames into a scratch file as they are made, keeping the sums the normalization and
    /// the coarse frames need.
    package final class Writer {
        private let descriptor: Int32
        private let coefficients: Int
        private var factor: Int
        private let maximumCoarse: Int
        private let dimension: Int
        private var count = 0
        private var sums: [Double]
        private var squares: [Double]
        private var coarseSums: [Float] = []
        private var finished = false

        /// A scratch file in `directory` (`coefficients` values a frame as the front end gives
        /// them, the first, the energy, left out), a coarse frame for every `factor` frames, or for
        /// twice as many each time there would be more than `maximumCoarse` of them.
        package init(directory: URL, coefficients: Int = 13, factor: Int = 32, maximumCoarse: Int = 1 << 18) throws {
            var template = Array(directory.appendingPathComponent("frames-XXXXXX").path.utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard made >= 0, fcntl(made, F_SETFD, FD_CLOEXEC) == 0 else {
                throw AudioError.encodingFailed(path: directory.path, reason: String(cString: strerror(errno)))
            }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            descriptor = made
            self.coefficients = coefficients
            self.factor = factor
            self.maximumCoarse = max(2, maximumCoarse)
            dimension = coefficients - 1
            sums = [Double](repeating: 0, count: coefficients - 1)
            squares = sums
        }

        deinit { if !finished { close(descriptor) } }
        /// Adds frames of cepstra (``coefficients`` values each).
        package func append(cepstra: [Float]) throws {
            let frames = cepstra.count / coefficients
            var kept = [Float](repeating: 0, count: frames * dimension)
            for frame in 0..<frames {
                var coarseFrame = (count + frame) / factor
                if coarseFrame >= maximumCoarse && factor < FrameFile.largestFactor {
                    coarsen()
                    coarseFrame = (count + frame) / factor
                }
                if coarseFrame * dimension >= coarseSums.count {
                    coarseSums.append(contentsOf: repeatElement(0, count: dimension))
                }
                for index in 0..<dimension {
                    let value = cepstra[frame * coefficients + index + 1]
                    kept[frame * dimension + index] = value
                    sums[index] += Double(value)
                    squares[index] += Double(value) * Double(value)
                    coarseSums[coarseFrame * dimension + index] += value
                }
            }
            try kept.withUnsafeBytes { bytes in
                let offset = off_t(count * dimension * MemoryLayout<Float>.size)
                guard pwrite(descriptor, bytes.baseAddress, bytes.count, offset) == bytes.count else {
                    throw AudioError.encodingFailed(path: "scratch frames", reason: String(cString: strerror(errno)))
                }
            }
            count += frames
        }
        /// Halves the coarse frames: each pair's sums added, the factor doubled.
        private func coarsen() {
            let pairs = (coarseSums.count / dimension + 1) / 2
            for pair in 0..<pairs {
                for index in 0..<dimension {
                    let second = (2 * pair + 1) * dimension + index
                    coarseSums[pair * dimension + index] =
                        coarseSums[2 * pair * dimension + index] + (second < coarseSums.count ? coarseSums[second] : 0)
                }
            }
            coarseSums.removeLast(coarseSums.count - pairs * dimension)
            factor *= 2
        }

        /// The file, its normalization fixed (each coefficient's mean and deviation over the
        /// reading) and its coarse frames made; the writer is done with.
        package func finish() -> FrameFile {
            precondition(!finished)
            finished = true
            let mean = (0..<dimension).map { Float(count > 0 ? sums[$0] / Double(count) : 0) }
            let scale = (0..<dimension).map { index in
                let average = count > 0 ? sums[index] / Double(count) : 0
                let deviation = count > 0 ? (squares[index] / Double(count) - average * average).squareRoot() : 1
                return Float(deviation > 1e-6 ? 1 / deviation : 1)
            }
            let coarseCount = (count + factor - 1) / factor
            var values = [Float](repeating: 0, count: coarseCount * dimension)
            for frame in 0..<coarseCount {
                let members = Float(min(factor, count - frame * factor))
                for index in 0..<dimension {
                    values[frame * dimension + index] =
                        (coarseSums[frame * dimension + index] / members - mean[index]) * scale[index]
                }
            }
            return FrameFile(
                descriptor: descriptor, factor: factor, count: count, mean: mean, scale: scale,
                coarse: ReadingWarp.Frames(values: values, dimension: dimension))
        }
    }

    private init(descriptor: Int32, factor: Int, count: Int, mean: [Float], scale: [Float], coarse: ReadingWarp.Frames)
    {
        self.descriptor = descriptor
        self.factor = factor
        self.count = count
        self.mean = mean
        self.scale = scale
        coarseFrames = Mutex(coarse)
        dimension = mean.count
    }

    deinit { close(descriptor) }

    /// Frees the coarse frames: the warp needs them only for its first, coarsest path, and a
    /// reading's can be a dozen megabytes that the model's examinations after it would hold too.
    package func releaseCoarse() {
        coarseFrames.withLock { $0 = nil }
    }

    /// The frames in `range` (clamped to the reading), normalized.
    package func frames(_ range: Range<Int>) throws -> ReadingWarp.Frames {
        let range = range.clamped(to: 0..<count)
        var values = [Float](repeating: 0, count: range.count * dimension)
        try values.withUnsafeMutableBytes { bytes in
            let offset = off_t(range.lowerBound * dimension * MemoryLayout<Float>.size)
            guard pread(descriptor, bytes.baseAddress, bytes.count, offset) == bytes.count else {
                throw AudioError.encodingFailed(path: "scratch frames", reason: String(cString: strerror(errno)))
            }
        }
        for frame in 0..<range.count {
            for index in 0..<dimension {
                values[frame * dimension + index] = (values[frame * dimension + index] - mean[index]) * scale[index]
            }
        }
        return ReadingWarp.Frames(values: values, dimension: dimension)
    }
}
