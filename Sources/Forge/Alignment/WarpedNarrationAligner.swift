import Foundation
import Synchronization

/// Aligns a long recording to its text by warping first: Forge's own reading of the text
/// (``BookReading``) is warped onto the recording (``ReadingWarp``), which places every word
/// without the acoustic model. The model (``NarrationAligner``, in stretches) is then asked only
/// what only it can tell:
/// - the recording's first and last minute: an intro, front matter not read, text past the end;
/// - where the warp's path says the two readings part (``ReadingWarp/disagreements(in:frames:ratio:)``):
///   a skipped paragraph, a retake, music;
/// - short probes spaced through the rest, confirming that the recording says this text where the
///   warp puts it. A probe that does not hear its words has the stretch between its neighbours
///   examined whole; when most probes hear nothing, the recording is not of this text and nothing
///   more is examined.
///
/// Elsewhere a word is heard where the warp puts it, and the recording's speech is where it is
/// louder than its pauses. The result is finished as ``NarrationAligner``'s is, so its reports and
/// limits mean the same.
package final class WarpedNarrationAligner {
    /// The recording's first and last seconds, always examined.
    var edgeSeconds = 60
    /// Seconds examined on each side of a disagreement.
    var marginSeconds = 15
    /// Seconds from one probe to the next, and a probe's length.
    var probeSpacingSeconds = 300
    var probeSeconds = 20
    /// A probe hears its text when at least this share of its words is heard.
    static let probeHeardShare = 0.5
    /// The share of an alignment's progress its first pass (the reading, the frames, the warp) stands for.
    package static let firstPassShare = 0.4
    /// Stretches examined at once.
    var jobs = 2

    /// What the model examined, for reports and tests.
    struct Examination: Sendable, Equatable {
        enum Reason: Sendable, Equatable { case edge, disagreement, probe, failedProbe }
        var reason: Reason
        var words: Range<Int>
        var samples: Range<Int>
        /// For a probe: whether it heard its words.
        var heard: Bool?
    }

    /// A finished alignment and what it took.
    struct Outcome: Sendable {
        var narration: NarrationAlignment
        var examinations: [Examination]
        /// Whether the probes found that the recording is not of this text (nothing more was examined).
        var foreign: Bool
        /// The recording's samples the model decoded.
        var examinedSamples: Int { examinations.reduce(0) { $0 + $1.samples.count } }
        /// The last sample of an examination an interrupted run saved and this one took as it was.
        var resumedAt: Int?
    }

    private let model: RecognizerModel
    private let language: String

    init(model: RecognizerModel, language: String) {
        self.model = model
        self.language = language
    }

    /// Aligns `words` to `samples` (16 kHz, whose frames and sound are `recording` and `sound`)
    /// through `reading`; `progress` is the share of the model's work done. Each examination is
    /// handed to `checkpoint` as it is done (from its thread); one in `saved` (an interrupted run's
    /// of the same words and samples: the warp finds the same stretches) is taken as it is.
    func align(
        words: [WordToken], reading: BookReading, recording: FrameFile, sound: FrameFlags, samples: RecognizerAudio,
        durationMs: Int, saved: [NarrationCheckpoint] = [],
        checkpoint: @escaping @Sendable (NarrationCheckpoint) throws -> Void = { _ in },
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> Outcome {
        precondition(reading.starts.count == words.count)
        let rate = PocketSphinxDecoder.sampleRate
        let samplesPerFrame = rate / PocketSphinxDecoder.framesPerSecond
        let clock = ContinuousClock.now
        let warped = try warp(reading, onto: recording)
        ForgeLog.debug("warped \(reading.frames.count) frames onto \(recording.count) in \(clock.duration(to: .now))")
        var placements = (0..<words.count).map { index -> WordPlacement? in
            WordPlacement(
                startMs: Int(warped.starts[index]) * 10,
                endMs: max(Int(warped.starts[index]) + 1, Int(warped.ends[index])) * 10, confidence: nil)
        }
        var speech = sound
        let total = samples.count
        let texts = words.map(\.text)
        func examination(_ frames: Range<Int>, _ reason: Examination.Reason) -> Examination {
            Self.examination(
                frames: frames, reason: reason, starts: warped.starts, wordCount: words.count, samples: total)
        }
        let framesTotal = total / samplesPerFrame + 1
        let stretches = stretches(disagreements: warped.disagreements, frames: framesTotal)
        let probes = probes(avoiding: stretches, frames: framesTotal)
        var examined = stretches.map { examination($0.frames, $0.reason) } + probes.map { examination($0, .probe) }
        let done = Atomic(0)
        let budget = max(1, examined.reduce(0) { $0 + $1.samples.count })
        let report: @Sendable (Int) -> Void = {
            progress(min(1, Double(done.add($0, ordering: .relaxed).newValue) / Double(budget)))
        }
        let examine = { (examinations: [Examination]) in
            try self.examine(
                examinations, texts: texts, samples: samples, saved: saved, checkpoint: checkpoint, report: report)
        }
        var results = try examine(examined)
        for index in examined.indices where examined[index].reason == .probe {
            examined[index].heard = Self.hears(results[index].placements)
        }
        let failed = examined.indices.filter { examined[$0].heard == false }
        let probeCount = probes.count
        if probeCount >= 3, failed.count * 2 > probeCount {
            // Most of the recording is not this text: say so now, without examining it whole.
            progress(1)
            let nothing = [WordPlacement?](repeating: nil, count: words.count)
            return Outcome(
                narration: NarrationAligner.result(
                    words: words, placements: nothing, speech: speech.drained(), durationMs: durationMs),
                examinations: examined, foreign: true, resumedAt: Self.resumedAt(examined, results))
        }
        // Each failed probe: the stretch from the examination before it to the one after it.
        let ordered = examined.sorted { $0.samples.lowerBound < $1.samples.lowerBound }
        var second: [Examination] = []
        for index in failed {
            let probe = examined[index]
            let before = ordered.last { $0.samples.upperBound <= probe.samples.lowerBound }?.samples.upperBound ?? 0
            let after = ordered.first { $0.samples.lowerBound >= probe.samples.upperBound }?.samples.lowerBound ?? total
            let frames = (before / samplesPerFrame)..<(after / samplesPerFrame)
            if let last = second.last, last.samples.upperBound >= before {
                second[second.count - 1] = examination(
                    (last.samples.lowerBound / samplesPerFrame)..<frames.upperBound, .failedProbe)
            } else {
                second.append(examination(frames, .failedProbe))
            }
        }
        results += try examine(second)
        examined += second
        for (found, result) in zip(examined, results) {
            ForgeLog.debug(
                "examined \(found.reason) words \(found.words) at \(found.samples.lowerBound / rate)-\(found.samples.upperBound / rate) s: \(Int(100 * NarrationAligner.heardShare(result.placements)))% heard"
            )
            Self.settle(result, of: found, total: total, into: &placements, speech: &speech)
        }
        progress(1)
        return Outcome(
            narration: NarrationAligner.result(
                words: words, placements: placements, speech: speech.drained(), durationMs: durationMs),
            examinations: examined, foreign: false, resumedAt: Self.resumedAt(examined, results))
    }

    /// Each word's first recording frame and the frame after its last, by the warp of `reading`
    /// onto `recording`, and the stretches of the recording (in frames) where the two part.
    private func warp(_ reading: BookReading, onto recording: FrameFile) throws -> (
        starts: [Int32], ends: [Int32], disagreements: [Range<Int>]
    ) {
        var starts = [Int32](repeating: 0, count: reading.starts.count)
        var ends = starts
        var disagreements: [Range<Int>] = []
        var nextStart = 0
        var nextEnd = 0
        let last = reading.frames.count - 1
        try ReadingWarp().path(reading.frames, recording) { firstRow, rows in
            let upper = firstRow + rows.count
            while nextStart < starts.count, min(last, Int(reading.starts[nextStart])) < upper {
                starts[nextStart] = Int32(rows[min(last, Int(reading.starts[nextStart])) - firstRow].first)
                nextStart += 1
            }
            while nextEnd < ends.count, min(last, Int(reading.ends[nextEnd])) < upper {
                ends[nextEnd] = Int32(rows[min(last, Int(reading.ends[nextEnd])) - firstRow].first)
                nextEnd += 1
            }
            for disagreement in ReadingWarp.disagreements(in: rows) {
                switch disagreement {
                case .audioWithoutText(let frames, _): disagreements.append(frames.lowerBound..<(frames.upperBound + 1))
                case .textWithoutAudio(_, let frame): disagreements.append(frame..<(frame + 1))
                }
            }
        }
        for index in ends.indices { ends[index] = max(ends[index], starts[index] + 1) }
        return (starts, ends, disagreements)
    }

    /// The stretches always examined, in frames, merged and in order: the recording's first and
    /// last ``edgeSeconds``, and every disagreement with ``marginSeconds`` around it.
    func stretches(disagreements: [Range<Int>], frames: Int) -> [(frames: Range<Int>, reason: Examination.Reason)] {
        let perSecond = PocketSphinxDecoder.framesPerSecond
        let edge = edgeSeconds * perSecond
        let margin = marginSeconds * perSecond
        var wanted: [(Range<Int>, Examination.Reason)] = [(0..<min(frames, edge), .edge)]
        wanted += disagreements.map {
            (max(0, $0.lowerBound - margin)..<min(frames, $0.upperBound + margin), .disagreement)
        }
        wanted.append((max(0, frames - edge)..<frames, .edge))
        wanted.sort { $0.0.lowerBound < $1.0.lowerBound }
        var merged: [(frames: Range<Int>, reason: Examination.Reason)] = []
        for (range, reason) in wanted where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.frames.upperBound {
                merged[merged.count - 1].frames = last.frames.lowerBound..<max(last.frames.upperBound, range.upperBound)
                if reason == .disagreement { merged[merged.count - 1].reason = .disagreement }
            } else {
                merged.append((range, reason))
            }
        }
        return merged
    }

    /// Probes of ``probeSeconds``, one every ``probeSpacingSeconds`` of the recording between
    /// `stretches` (in frames), none overlapping one.
    func probes(avoiding stretches: [(frames: Range<Int>, reason: Examination.Reason)], frames: Int) -> [Range<Int>] {
        let perSecond = PocketSphinxDecoder.framesPerSecond
        let spacing = probeSpacingSeconds * perSecond
        let length = probeSeconds * perSecond
        var probes: [Range<Int>] = []
        for start in stride(from: spacing, to: frames - length, by: spacing) {
            let probe = start..<(start + length)
            if !stretches.contains(where: { $0.frames.overlaps(probe) }) { probes.append(probe) }
        }
        return probes
    }

    /// The words the warp starts in `frames` and the samples they are said in: from just before the
    /// first one (or the recording's start) to the start of the word after the last (or the end).
    /// A stretch holding no word's start takes the next word (or the one before, at the end).
    static func examination(
        frames: Range<Int>, reason: Examination.Reason, starts: [Int32], wordCount: Int, samples: Int
    ) -> Examination {
        let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond
        let lead = PocketSphinxDecoder.sampleRate / 10
        var first = firstWord(startingAtOrAfter: frames.lowerBound, in: starts)
        var end = firstWord(startingAtOrAfter: frames.upperBound, in: starts)
        if first == end {
            if end < wordCount { end += 1 } else if first > 0 { first -= 1 }
        }
        let from = frames.lowerBound == 0 || first == 0 ? 0 : max(0, Int(starts[first]) * samplesPerFrame - lead)
        let to = end >= wordCount ? samples : min(samples, max(from + 1, Int(starts[end]) * samplesPerFrame))
        return Examination(reason: reason, words: first..<end, samples: min(from, to)..<to)
    }

    /// The first word the warp starts at `frame` or later (`starts.count` when none).
    static func firstWord(startingAtOrAfter frame: Int, in starts: [Int32]) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if Int(starts[middle]) < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether a probe heard its words.
    static func hears(_ placements: [WordPlacement?]) -> Bool {
        guard !placements.isEmpty else { return true }
        return Double(placements.filter(NarrationAligner.isHeard).count) >= probeHeardShare * Double(placements.count)
    }

    /// Each examination's placements (in ms from its first sample) and speech, by the model, ``jobs`` at once.
    private func examine(
        _ examinations: [Examination], texts: [String], samples: RecognizerAudio, saved: [NarrationCheckpoint],
        checkpoint: @escaping @Sendable (NarrationCheckpoint) throws -> Void, report: @escaping @Sendable (Int) -> Void
    ) throws -> [Verdict] {
        let results = Mutex([Verdict?](repeating: nil, count: examinations.count))
        let (model, language) = (model, language)
        try BlockingThreads.forEachIndex(examinations.count, threads: jobs, cancellation: nil) { index in
            let examination = examinations[index]
            let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond
            let made = NarrationCheckpoint(
                cursor: examination.samples.upperBound, nextWord: examination.words.upperBound,
                speechFrame: examination.samples.lowerBound / samplesPerFrame, speech: [],
                firstWord: examination.words.lowerBound, placements: [])
            let result: Verdict
            if let kept = saved.first(where: {
                ($0.cursor, $0.nextWord, $0.speechFrame, $0.firstWord, $0.placements.count)
                    == (made.cursor, made.nextWord, made.speechFrame, made.firstWord, examination.words.count)
            }) {
                result = Verdict(placements: kept.placements, speech: kept.speech, saved: true)
            } else {
                let aligner = try NarrationAligner(model: model, language: language)
                aligner.jobs = 1
                let placed = try aligner.place(
                    texts: Array(texts[examination.words]), samples: samples.stretch(examination.samples))
                result = Verdict(placements: placed.placements, speech: placed.speech, saved: false)
                var done = made
                (done.placements, done.speech) = placed
                try checkpoint(done)
            }
            report(examination.samples.count)
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }.map { $0! }
    }

    /// What the model made of an examination: its words' placements (in ms from its first
    /// sample) and which of its frames hold speech; `saved` when an interrupted run's was taken.
    struct Verdict: Sendable {
        var placements: [WordPlacement?]
        var speech: [Bool]
        var saved: Bool
    }

    /// The end of the last examination taken from an interrupted run, if any.
    private static func resumedAt(_ examinations: [Examination], _ verdicts: [Verdict]) -> Int? {
        zip(examinations, verdicts).filter { $0.1.saved }.map(\.0.samples.upperBound).max()
    }

    /// Takes an examination's verdict: its words' placements by the model (but for a word at
    /// either end inside the recording that the model did not hear, which keeps the warp's: the
    /// stretch's edge may cut into it), and its speech.
    private static func settle(
        _ result: Verdict, of examination: Examination, total: Int, into placements: inout [WordPlacement?],
        speech: inout FrameFlags
    ) {
        let rate = PocketSphinxDecoder.sampleRate
        let offsetMs = examination.samples.lowerBound * 1000 / rate
        let edgeWords = 2
        let cutBefore = examination.samples.lowerBound > 0
        let cutAfter = examination.samples.upperBound < total
        for (offset, placement) in result.placements.enumerated() {
            let word = examination.words.lowerBound + offset
            let atEdge =
                (cutBefore && offset < edgeWords) || (cutAfter && offset >= result.placements.count - edgeWords)
            if atEdge, !NarrationAligner.isHeard(placement) { continue }
            placements[word] = placement.map {
                WordPlacement(
                    startMs: $0.startMs + offsetMs, endMs: $0.endMs + offsetMs, confidence: $0.confidence, fit: $0.fit)
            }
        }
        let firstFrame = examination.samples.lowerBound / (rate / PocketSphinxDecoder.framesPerSecond)
        for (offset, isSpeech) in result.speech.enumerated() where firstFrame + offset < speech.count {
            speech[firstFrame + offset] = isSpeech
        }
    }
}
