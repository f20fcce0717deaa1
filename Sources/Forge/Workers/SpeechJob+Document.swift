extension SpeechJob {
    /// An engine's speech as this job stores it: its samples at the job's sample rate, and the
    /// events document naming the engine and the version the job's keys were made with.
    func stored(_ speech: SynthesizedSpeech, engine: String, engineVersion: String) -> (
        samples: [Int16], document: SpeechEventsDocument
    ) {
        let samples = Resampler.resample(speech.samples, from: speech.sampleRate, to: audio.sampleRate)
        let durationMs = Int((Int64(samples.count) * 1000) / Int64(audio.sampleRate))
        let document = SpeechEventsDocument(
            engine: engine, engineVersion: engineVersion, audioKey: audioKey, durationMs: durationMs,
            sampleRate: audio.sampleRate, events: speech.events, wordsTimed: speech.wordsTimed,
            phonemes: speech.phonemes)
        return (samples, document)
    }
}
