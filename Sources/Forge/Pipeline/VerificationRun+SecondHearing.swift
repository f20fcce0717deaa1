import Foundation

extension VerificationRun {
    /// What a chunk's second hearings did: items heard again, and those whose flags they cleared.
    struct SecondHearings: Sendable {
        var heard = 0
        var cleared = 0
    }

    /// The chunk's flags after a second hearing: each item flagged only for unheard words is heard
    /// again on its own (``hearsAgain(_:in:languageModel:transcriber:store:cancellation:)``) and
    /// keeps its flag only when it fails again; nil when stopped (the chunk is then not recorded).
    /// What a decoder heard earlier in a chunk carries into each utterance and can make it mishear
    /// a clean item; heard alone, with the same language model and limits, a clean item passes,
    /// while wrong, cut or silent audio stays unheard.
    func secondHearing(
        of flags: [ChunkReport.FlaggedItem], in timeline: ChapterTimeline, chunk: Chunk, transcriber: ChunkTranscriber,
        store: ObjectStore, cancellation: CancellationFlag
    ) throws -> (flags: [ChunkReport.FlaggedItem], hearings: SecondHearings)? {
        var hearings = SecondHearings()
        let languageModel = OwnedDirectory(root: outputDirectory).url(
            "verify/" + Self.languageModelName(timeline, startMs: chunk.startMs))
        let items = timeline.items(overlappingMs: chunk.startMs..<chunk.endMs)
        var kept: [ChunkReport.FlaggedItem] = []
        for flag in flags {
            guard flag.extraWords.isEmpty, let item = items.first(where: { $0.record.id == flag.itemID }) else {
                kept.append(flag)
                continue
            }
            hearings.heard += 1
            guard
                let heard = try hearsAgain(
                    item, in: timeline, languageModel: languageModel, transcriber: transcriber, store: store,
                    cancellation: cancellation)
            else { return nil }
            if heard { hearings.cleared += 1 } else { kept.append(flag) }
        }
        return (kept, hearings)
    }

    /// Whether `item` passes when heard on its own: its audio alone, aligned to its words and
    /// decoded with `languageModel` where one is not found, by a decoder that heard nothing
    /// before it, and scored as a chunk scores its items (``flagWords``, ``flagShare``, heard
    /// words in runs), every word counting. Nil when stopped.
    func hearsAgain(
        _ item: TimedItem, in timeline: ChapterTimeline, languageModel: URL, transcriber: ChunkTranscriber,
        store: ObjectStore, cancellation: CancellationFlag
    ) throws -> Bool? {
        let audio = try ChapterAudio.render(
            timeline, store: store, samples: item.startSample..<(item.startSample + item.sampleCount))
        let samples = RecognizerInput.samples(audio[...], from: timeline.sampleRate)
        var expected: [ChunkTranscriber.ExpectedWord] = []
        for word in item.words {
            guard let timing = word.timing else { continue }
            for token in TranscriptNormalizer.normalize(word.token.text) {
                expected.append(.init(token: token, startMs: timing.startMs - item.startMs))
            }
        }
        guard !expected.isEmpty else { return false }
        guard
            let transcript = try transcriber.transcribe(
                samples[...], expected: expected, languageModel: languageModel, cancellation: cancellation)
        else { return nil }
        let hypothesis = transcript.utterances.joined().map(\.text).flatMap(TranscriptNormalizer.normalize)
        let rate = WordErrorRate(reference: expected.map(\.token), hypothesis: hypothesis)
        let heard = Self.heardInRuns(rate.heard, items: Array(repeating: item.record.id, count: expected.count))
        let unheard = heard.filter { !$0 }.count
        return !(unheard >= Self.flagWords && Double(unheard) >= Self.flagShare * Double(expected.count))
    }
}
