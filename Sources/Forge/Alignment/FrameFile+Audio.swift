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

extension FrameFile {
    /// The frames of `samples` (16 kHz) into a scratch file in `directory`, a minute at a time, and
    /// which 10 ms frames are louder than the pauses (``SpeechOnsets``, whose levels are judged a
    /// minute at a time): where the recording speaks, without the acoustic model. `progress` is
    /// told the share read.
    static func reading(
        samples: RecognizerAudio, directory: URL, factor: Int = 32, progress: (Double) -> Void = { _ in }
    ) throws -> (frames: FrameFile, sound: FrameFlags) {
        let writer = try Writer(
            directory: directory, coefficients: PocketSphinxDecoder.FrontEnd.coefficients, factor: factor)
        let frontEnd = try PocketSphinxDecoder.FrontEnd()
        let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond
        let block = 60 * PocketSphinxDecoder.sampleRate
        var sound = FrameFlags(count: samples.count / samplesPerFrame + 1)
        var cepstra: [Float] = []
        for start in stride(from: 0, to: samples.count, by: block) {
            let read = samples.samples(start..<min(samples.count, start + block))
            let onsets = SpeechOnsets(samples: read[...])
            let firstFrame = start / samplesPerFrame
            for frame in 0..<((read.count + samplesPerFrame - 1) / samplesPerFrame)
            where firstFrame + frame < sound.count && onsets.isSound(frame) {
                sound[firstFrame + frame] = true
            }
            frontEnd.process(read, into: &cepstra)
            try writer.append(cepstra: cepstra)
            cepstra.removeAll(keepingCapacity: true)
            progress(Double(start + read.count) / Double(samples.count))
        }
        frontEnd.finish(into: &cepstra)
        try writer.append(cepstra: cepstra)
        return (writer.finish(), sound)
    }
}
