/// Audio as pocketsphinx hears it: 16 kHz, by linear interpolation after a moving average as wide
/// as the rate ratio (rounded). Not a general resampler — audio people hear goes through
/// ``Resampler`` (libsoxr, band-limited) — but the conversion this acoustic model recognizes
/// espeak-ng speech best from: verification hears fewer word errors with it than with libsoxr's
/// high-quality filter or at 22,050 Hz directly, and forced alignment places words as well
/// (docs/benchmarks.md, "Calibrations").
///
/// No copy of a whole recording as `Double`s; long recordings go through it a block at a time.
enum RecognizerInput {
    static func samples(_ samples: ArraySlice<Int16>, from sourceRate: Int) -> [Int16] {
        guard sourceRate != PocketSphinxDecoder.sampleRate, !samples.isEmpty, sourceRate > 0 else {
            return Array(samples)
        }
        // One conversion, whole or in blocks (``RecognizerInputStream``), so both give the same samples.
        let stream = RecognizerInputStream(sourceRate: sourceRate)
        return stream.process(Array(samples)) + stream.finish()
    }
}
