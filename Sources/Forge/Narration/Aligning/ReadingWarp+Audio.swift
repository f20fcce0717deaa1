extension ReadingWarp.Frames {
    /// The frames of speech held in memory (any rate, one channel): a short reading, warped whole
    /// (a long one goes through a ``FrameFile``).
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
