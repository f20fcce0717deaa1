/// Mono 16-bit PCM read from an audio file or object.
package struct DecodedAudio: Sendable {
    package var samples: [Int16]
    package var sampleRate: Int
    /// Frames the file's header promised that decoding could not read (a damaged or cut file:
    /// libsndfile stops at the first frame it cannot decode); 0 when it read them all. Counted for
    /// WAV, FLAC and Ogg, whose headers give exact lengths (an MP3's is an estimate).
    package var missingFrames = 0

    package init(samples: [Int16], sampleRate: Int, missingFrames: Int = 0) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.missingFrames = missingFrames
    }

    /// Length in milliseconds.
    package var durationMs: Int { sampleRate > 0 ? Int(Int64(samples.count) * 1000 / Int64(sampleRate)) : 0 }
}
