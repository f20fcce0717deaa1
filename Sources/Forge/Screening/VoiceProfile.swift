import Foundation

/// How one voice's items usually measure in this book: what the quick check compares each item
/// with, so a check holds for any voice or engine without constants per voice.
///
/// An item's length is expected from how the engine reads its text (``SpokenReading``): the
/// voice's milliseconds per phoneme and per clause, fitted over its items, so "279 B. C." takes what
/// the engine says for it. How far the voice's own items stray from that, and from its usual
/// zero-crossing rate, is measured too: an item is judged against the voice's ordinary variation,
/// which is wider for short items (fewer phonemes, fewer frames) than for long ones.
package struct VoiceProfile: Sendable, Equatable {
    /// Items whose sound is at least this long (and whose text at least ``minimumCharacters``)
    /// make up the profile and are judged against it: short ones vary too much.
    static let minimumActiveMs = 1_500
    static let minimumCharacters = 30
    /// Fewer such items than this: no profile, and only the absolute checks run.
    static let minimumItems = 5
    /// Items of at least this many phonemes (and this much sound) measure the voice's own spread:
    /// their length and sound vary least with what they say.
    static let longItemPhonemes = 160
    static let longItemActiveMs = 7_000
    /// When a voice has too few long items to measure its spread, these (about espeak-ng's
    /// voices').
    static let defaultLengthSpread = 0.05
    static let defaultCrossingSpread = 0.05

    package var items: Int
    /// Milliseconds of audio per character of text: the length model of items with no reading.
    package var msPerCharacter: Double
    /// Milliseconds per phoneme and per clause of the engine's reading; nil without readings.
    package var msPerPhoneme: Double?
    package var msPerClause: Double?
    /// The standard deviation of the log of long items' length over their expected length.
    package var lengthSpread: Double
    package var levelDb: Double
    package var zeroCrossingRate: Double
    /// The standard deviation of long items' zero-crossing rate over the voice's.
    package var crossingSpread: Double
    package var onsetSkew: Double
    /// How much an item's onset skew strays from the voice's, as a variance per second of sound:
    /// the skew of a few seconds of speech varies far more than that of a minute's.
    package var skewVariancePerSecond: Double
    /// Without enough items to measure it (espeak-ng's voices: about 0.87, on 2,400 items).
    static let defaultSkewVariancePerSecond = 0.87

    /// One measured item: its text's characters, the engine's reading of it (if any) and its signal.
    package struct Measured: Sendable {
        package var characters: Int
        package var reading: SpokenReading?
        package var signal: ItemSignal

        package init(characters: Int, reading: SpokenReading?, signal: ItemSignal) {
            self.characters = characters
            self.reading = reading
            self.signal = signal
        }
    }

    /// The profile of `measured`, or nil with too few items.
    package init?(_ measured: [Measured]) {
        // Noise is no measure of a voice (a chapter of it must not move the voice's sound).
        let typical = measured.filter {
            Self.isTypical(characters: $0.characters, signal: $0.signal)
                && $0.signal.zeroCrossingRate < ItemScreen.noiseCrossingRate
        }
        guard typical.count >= Self.minimumItems,
            let pace = ItemSignal.median(typical.map { Double($0.signal.durationMs) / Double($0.characters) }),
            let level = ItemSignal.median(typical.map(\.signal.levelDb)),
            let crossings = ItemSignal.median(typical.map(\.signal.zeroCrossingRate)),
            let skew = ItemSignal.median(typical.map(\.signal.onsetSkew))
        else { return nil }
        items = typical.count
        msPerCharacter = pace
        levelDb = level
        zeroCrossingRate = crossings
        onsetSkew = skew
        let read = typical.compactMap { item in
            item.reading.map { (reading: $0, durationMs: Double(item.signal.durationMs)) }
        }
        if read.count >= Self.minimumItems, let (perPhoneme, perClause) = Self.fitLength(read) {
            msPerPhoneme = perPhoneme
            msPerClause = perClause
        }
        let long = typical.filter {
            $0.signal.activeMs >= Self.longItemActiveMs
                && ($0.reading?.phonemes ?? Self.longItemPhonemes) >= Self.longItemPhonemes
        }
        lengthSpread = Self.defaultLengthSpread
        crossingSpread = Self.defaultCrossingSpread
        let timed = typical.filter { $0.signal.activeMs >= ItemScreen.reversedActiveMs }
        if timed.count >= Self.minimumItems {
            // The mean without the 5% largest (an item with a fault among them does not widen it).
            let scaled = timed.map { pow($0.signal.onsetSkew - skew, 2) * Double($0.signal.activeMs) / 1000 }.sorted()
            let kept = scaled.prefix(scaled.count - scaled.count / 20)
            skewVariancePerSecond = max(0.1, kept.reduce(0, +) / Double(kept.count))
        } else {
            skewVariancePerSecond = Self.defaultSkewVariancePerSecond
        }
        if long.count >= Self.minimumItems {
            let profile = self
            let logRatios = long.compactMap { item in
                profile.expectedMs(characters: item.characters, reading: item.reading).map {
                    log(Double(item.signal.durationMs) / $0)
                }
            }
            lengthSpread = max(0.02, Self.trimmedDeviation(logRatios))
            crossingSpread = max(0.02, Self.trimmedDeviation(long.map { $0.signal.zeroCrossingRate / crossings }))
        }
    }

    static func isTypical(characters: Int, signal: ItemSignal) -> Bool {
        characters >= minimumCharacters && signal.activeMs >= minimumActiveMs
    }

    /// How long an item should take: from the engine's reading of its text when the profile has
    /// a reading model, else from its characters.
    func expectedMs(characters: Int, reading: SpokenReading?) -> Double? {
        if let reading, let msPerPhoneme, let msPerClause, reading.phonemes > 0 {
            return Double(reading.phonemes) * msPerPhoneme + Double(reading.clauses) * msPerClause
        }
        return characters > 0 ? Double(characters) * msPerCharacter : nil
    }

    /// Milliseconds per phoneme and per clause by least squares (duration = a·phonemes + b·clauses),
    /// fitted twice: the second time without the items the first fit missed by more than a third
    /// (an item with other text in it must not pull the voice's pace).
    static func fitLength(_ items: [(reading: SpokenReading, durationMs: Double)]) -> (Double, Double)? {
        func fit(_ items: [(reading: SpokenReading, durationMs: Double)]) -> (Double, Double)? {
            var (pp, pc, cc, pd, cd) = (0.0, 0.0, 0.0, 0.0, 0.0)
            for item in items {
                let (p, c, d) = (Double(item.reading.phonemes), Double(item.reading.clauses), item.durationMs)
                pp += p * p
                pc += p * c
                cc += c * c
                pd += p * d
                cd += c * d
            }
            let determinant = pp * cc - pc * pc
            guard determinant > 0 else { return nil }
            let a = (pd * cc - cd * pc) / determinant
            let b = (cd * pp - pd * pc) / determinant
            return a > 0 && b >= 0 ? (a, b) : nil
        }
        guard let first = fit(items) else { return nil }
        let kept = items.filter { item in
            let expected = Double(item.reading.phonemes) * first.0 + Double(item.reading.clauses) * first.1
            return expected > 0 && abs(log(item.durationMs / expected)) < log(4.0 / 3)
        }
        return kept.count >= minimumItems ? fit(kept) ?? first : first
    }

    /// The standard deviation of `values` estimated without the 5% at either end (items with faults
    /// among them do not widen it), scaled by ``trimmedDeviationScale`` so that for normally spread
    /// values it is their standard deviation, not the smaller one of their middle 90%. Not the
    /// median deviation: a zero-crossing rate is a median of whole counts per frame, so many items
    /// share one value, and their median deviation is often 0.
    static func trimmedDeviation(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let cut = sorted.count / 20
        let kept = sorted[cut..<(sorted.count - cut)]
        guard kept.count >= 2 else { return 0 }
        let mean = kept.reduce(0, +) / Double(kept.count)
        let deviation = (kept.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(kept.count - 1)).squareRoot()
        return cut > 0 ? deviation * trimmedDeviationScale : deviation
    }

    /// The standard deviation of a normal distribution over that of its middle 90%:
    /// 1 / (1 - 2 z φ(z) / 0.9)^½ at z = 1.645, φ its density there.
    static let trimmedDeviationScale = 1.267
}
