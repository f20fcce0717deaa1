import Foundation

/// A recording as the recognizer hears it (16 kHz mono), read a window at a time: held in
/// memory for short audio, or in a scratch file for a narration hours long, so memory does not
/// grow with the recording.
///
/// Immutable once made, and read with `pread` (no shared file offset): segments aligned side by
/// side read it from their threads at once.
final class RecognizerAudio: Sendable {
    private enum Storage {
        case memory([Int16])
        /// An open file of 16-bit samples, which this owns and closes.
        case file(descriptor: Int32)
        /// A stretch of another recording, from `offset` on.
        case stretch(of: RecognizerAudio, offset: Int)
    }

    private let storage: Storage
    /// Samples, at 16 kHz.
    let count: Int

    init(samples: [Int16]) {
        storage = .memory(samples)
        count = samples.count
    }

    /// The `count` samples already in the file open as `descriptor` (which this owns and closes).
    init(descriptor: Int32, count: Int) {
        storage = .file(descriptor: descriptor)
        self.count = count
    }

    /// Converts `reader`'s recording to 16 kHz into `descriptor` (an empty file open for reading
    /// and writing, which this owns and closes; `label` names it in errors),
    /// block by block, each converted block also handed to `observe`; `progress` is told the share
    /// read, each hundredth (when the file says its length).
    init(
        reading reader: SoundFile.Reader, into descriptor: Int32, label: String,
        observe: ([Int16]) throws -> Void = { _ in }, progress: (Double) -> Void = { _ in }
    ) throws {
        let stream = RecognizerInputStream(sourceRate: reader.sampleRate)
        var written = 0
        var reported = 0
        func write(_ samples: [Int16]) throws {
            try samples.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let result = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    guard result > 0 else {
                        throw AudioError.encodingFailed(path: label, reason: String(cString: strerror(errno)))
                    }
                    offset += result
                }
            }
            written += samples.count
            try observe(samples)
        }
        do {
            while true {
                let block = try reader.read()
                if block.isEmpty { break }
                try write(stream.process(block))
                if reader.promisedFrames > 0 {
                    let hundredths = min(100, reader.framesRead * 100 / reader.promisedFrames)
                    if hundredths > reported {
                        reported = hundredths
                        progress(Double(hundredths) / 100)
                    }
                }
            }
            try write(stream.finish())
        } catch {
            close(descriptor)
            throw error
        }
        storage = .file(descriptor: descriptor)
        count = written
    }

    /// The samples in `range` (clamped to this recording) as a recording of their own, read from
    /// this one: no copy is made.
    func stretch(_ range: Range<Int>) -> RecognizerAudio {
        let range = range.clamped(to: 0..<count)
        return RecognizerAudio(storage: .stretch(of: self, offset: range.lowerBound), count: range.count)
    }

    private init(storage: Storage, count: Int) {
        self.storage = storage
        self.count = count
    }

    deinit {
        if case .file(let descriptor) = storage { close(descriptor) }
    }

    /// The samples in `range` (clamped to the recording).
    func samples(_ range: Range<Int>) -> [Int16] {
        let range = range.clamped(to: 0..<count)
        switch storage {
        case .memory(let samples):
            return Array(samples[range])
        case .stretch(let recording, let offset):
            return recording.samples((range.lowerBound + offset)..<(range.upperBound + offset))
        case .file(let descriptor):
            var samples = [Int16](repeating: 0, count: range.count)
            samples.withUnsafeMutableBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let result = pread(
                        descriptor, bytes.baseAddress! + offset, bytes.count - offset,
                        off_t(range.lowerBound * 2 + offset))
                    if result <= 0 { break }
                    offset += result
                }
            }
            return samples
        }
    }
}
