import Foundation
import Synchronization

extension FrameFile {
    /// The frames of the recording at `url` (any format libsndfile reads, mixed to mono), read a
    /// block at a time at 16 kHz into a scratch file in `directory`.
    package static func reading(audioAt url: URL, directory: URL, factor: Int = 32) throws -> FrameFile {
        let writer = try Writer(
            directory: directory, coefficients: PocketSphinxDecoder.FrontEnd.coefficients, factor: factor)
        let reader = try SoundFile.Reader(url: url)
        let stream = RecognizerInputStream(sourceRate: reader.sampleRate)
        let frontEnd = try PocketSphinxDecoder.FrontEnd()
        var cepstra: [Float] = []
        while true {
            let block = try reader.read()
            if block.isEmpty { break }
            frontEnd.process(stream.process(block), into: &cepstra)
            try writer.append(cepstra: cepstra)
            cepstra.removeAll(keepingCapacity: true)
        }
        frontEnd.process(stream.finish(), into: &cepstra)
        frontEnd.finish(into: &cepstra)
        try writer.append(cepstra: cepstra)
        return writer.finish()
    }

    /// ``reading(audioAt:directory:factor:)`` of each recording, side by side (the front end is
    /// most of a warp's time, and each reading is independent of the other).
    package static func readings(audioAt urls: [URL], directory: URL, factor: Int = 32) throws -> [FrameFile] {
        let results = Mutex([Result<FrameFile, any Error>?](repeating: nil, count: urls.count))
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            let result = Result { try reading(audioAt: urls[index], directory: directory, factor: factor) }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }
}
