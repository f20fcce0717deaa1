import Foundation

extension ReadingWarp.Frames {
    /// The frames of the recording at `url` (any format libsndfile reads, mixed to mono), read a
    /// block at a time at 16 kHz: 100 a second.
    package init(readingAudioAt url: URL) throws {
        let reader = try SoundFile.Reader(url: url)
        let stream = RecognizerInputStream(sourceRate: reader.sampleRate)
        let frontEnd = try PocketSphinxDecoder.FrontEnd()
        var cepstra: [Float] = []
        while true {
            let block = try reader.read()
            if block.isEmpty { break }
            frontEnd.process(stream.process(block), into: &cepstra)
        }
        frontEnd.process(stream.finish(), into: &cepstra)
        frontEnd.finish(into: &cepstra)
        self.init(cepstra: cepstra, coefficients: PocketSphinxDecoder.FrontEnd.coefficients)
    }

    /// The frames of speech held in memory (any rate, one channel).
    package init(samples: [Int16], sampleRate: Int) throws {
        let stream = RecognizerInputStream(sourceRate: sampleRate)
        let frontEnd = try PocketSphinxDecoder.FrontEnd()
        var cepstra: [Float] = []
        frontEnd.process(stream.process(samples), into: &cepstra)
        frontEnd.process(stream.finish(), into: &cepstra)
        frontEnd.finish(into: &cepstra)
        self.init(cepstra: cepstra, coefficients: PocketSphinxDecoder.FrontEnd.coefficients)
    }
}
