extension ChapterTimeline {
    /// One item to place: its record, its audio object and its length in samples at the chapter's rate.
    struct Sound {
        let record: ItemRecord
        let audioPath: String
        let samples: Int
    }

    /// The chapter laid out: `sounds` in order from `pauses.headMs`, each followed by its pause, the
    /// whole rounded up to AAC frames. Words and sentences are left to ``BookTimeline/timed(_:)``.
    static func laidOut(chapter: Chapter, sounds: [Sound], sampleRate: Int, pauses: TimelinePauses) -> ChapterTimeline {
        var placed: [TimedItem] = []
        placed.reserveCapacity(sounds.count)
        var cursor = pauses.headMs * sampleRate / 1000
        for (position, sound) in sounds.enumerated() {
            let next = position + 1 < sounds.count ? sounds[position + 1].record : nil
            let pauseMs = pauses.after(sound.record, before: next)
            placed.append(
                TimedItem(
                    record: sound.record, audioPath: sound.audioPath, startSample: cursor, sampleCount: sound.samples,
                    startMs: milliseconds(cursor, rate: sampleRate),
                    endMs: milliseconds(cursor + sound.samples, rate: sampleRate), pauseAfterMs: pauseMs,
                    words: [], sentences: []))
            cursor += sound.samples + pauseMs * sampleRate / 1000
        }
        // A chapter lasts a whole number of AAC frames (its tail's silence lengthened by less than
        // one, 46 ms at 22.05 kHz): each chapter is then encoded once on its own, and the M4B joins
        // the encoded chapters end to end without a gap, a click or a drift of its chapter marks.
        let total = wholeFrames(cursor)
        return ChapterTimeline(
            chapter: chapter, items: placed, sampleRate: sampleRate,
            durationMs: milliseconds(total, rate: sampleRate), totalSamples: total)
    }

    /// The same items laid out with other pauses.
    func laidOut(with pauses: TimelinePauses) -> ChapterTimeline {
        Self.laidOut(
            chapter: chapter,
            sounds: items.map { Sound(record: $0.record, audioPath: $0.audioPath, samples: $0.sampleCount) },
            sampleRate: sampleRate, pauses: pauses)
    }
}
