import CPocketSphinx
import Foundation

extension PocketSphinxDecoder {
    /// Sphinx's front end alone: mel-frequency cepstra of 16 kHz speech, 100 frames a second (13
    /// coefficients each, the first the frame's energy), as the decoder computes them, without
    /// a model: what two readings of one text are compared by (``ReadingWarp``). Fed a block at a
    /// time, so a long recording need not be held.
    final class FrontEnd {
        static let coefficients = 13
        static let framesPerSecond = 100
        private let frontEnd: OpaquePointer
        /// Room for the frames one block makes, and a pointer to each (sphinx writes through them).
        private var buffer = UnsafeMutablePointer<Float>.allocate(capacity: 0)
        private var rows = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 0)
        private var capacity = 0

        init() throws(RecognitionError) {
            _ = PocketSphinxDecoder.silenceLog
            // No silence or noise removal: either would drop or change frames, and every frame
            // stands for its 10 ms of the recording.
            let arguments = [
                "-samprate", "16000", "-frate", String(Self.framesPerSecond), "-ncep", String(Self.coefficients),
                "-remove_silence", "no", "-remove_noise", "no", "-dither", "no",
            ]
            let argv = arguments.map { strdup($0) }
            defer { for argument in argv { free(argument) } }
            var pointers = argv
            PocketSphinxDecoder.creation.lock()
            defer { PocketSphinxDecoder.creation.unlock() }
            let config = pointers.withUnsafeMutableBufferPointer { buffer in
                cmd_ln_parse_r(nil, fe_get_args(), Int32(buffer.count), buffer.baseAddress, 1)
            }
            // The front end owns its configuration from here on.
            guard let config, let made = fe_init_auto_r(config) else {
                throw .decoderFailed(
                    "sphinx's front end rejected its configuration \(arguments.joined(separator: " "))")
            }
            frontEnd = made
            fe_start_utt(frontEnd)
        }

        deinit {
            fe_free(frontEnd)
            buffer.deallocate()
            rows.deallocate()
        }

        /// Appends the cepstra of `samples` (16 kHz) to `frames`, 13 values a frame; samples short
        /// of a frame wait for the next block.
        func process(_ samples: [Int16], into frames: inout [Float]) {
            guard !samples.isEmpty else { return }
            let room = samples.count / (16_000 / Self.framesPerSecond) + 2
            reserve(room)
            samples.withUnsafeBufferPointer { input in
                var next: UnsafePointer<Int16>? = input.baseAddress
                var left = input.count
                while left > 0 {
                    var made = Int32(room)
                    let before = left
                    _ = fe_process_frames(frontEnd, &next, &left, rows, &made, nil)
                    frames.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(made) * Self.coefficients))
                    if made == 0 && left == before { break }
                }
            }
        }

        /// Appends the last frame, made of the samples left over, if any.
        func finish(into frames: inout [Float]) {
            reserve(1)
            var made: Int32 = 0
            fe_end_utt(frontEnd, rows[0], &made)
            frames.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(made) * Self.coefficients))
        }

        private func reserve(_ frames: Int) {
            guard capacity < frames else { return }
            buffer.deallocate()
            rows.deallocate()
            buffer = .allocate(capacity: frames * Self.coefficients)
            buffer.initialize(repeating: 0, count: frames * Self.coefficients)
            rows = .allocate(capacity: frames)
            for index in 0..<frames { (rows + index).initialize(to: buffer + index * Self.coefficients) }
            capacity = frames
        }
    }
}
