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
///   warp puts it. A probe that does not hear its words is looked at again with more of the
///   recording around it (the model, starting cold, can miss a hard stretch of a right reading);
///   if that does not hear them either, the stretch between its neighbours is examined whole. When
///   most probes and edges hear nothing, the recording is not of this text and nothing more is
///   examined.
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
        /// `recheck`: a probe that did not hear its words, looked at again ``probeSeconds`` wider on
        /// each side; `failedProbe`: the stretch around a recheck that did not hear them either.
        enum Reason: Sendable, Equatable {
            case edge, disagreement, probe, recheck, failedProbe
            /// A probe or a recheck: it confirms the warp's placement rather than replacing it.
            var confirms: Bool { self == .probe || self == .recheck }
        }
        var reason: Reason
        var words: Range<Int>
        var samples: Range<Int>
        /// For a probe or an edge: whether it heard its words.
        var heard: Bool?
    }

    /// A finished alignment and what it took.
    struct Outcome: Sendable {
        var narration: NarrationAlignment
        var examinations: [Examination]
        /// Whether the probes found that the recording is not of this text (nothing more was examined).
        var foreign: Bool
        /// The recording's samples the model decoded (a stretch examined twice counts twice).
        var examinedSamples: Int
        /// The last sample of an examination an interrupted run saved and this one took as it was.
        var resumedAt: Int?
        /// The share of the words at the recording's edges and probes the model heard; below
        /// ``WarpedNarrationAligner/wellHeardShare`` the stretches around failed probes were not examined.
        var heardShare = 1.0
    }

    private let model: RecognizerModel
    private let language: String

    init(model: RecognizerModel, language: String) {
        self.model = model
        self.language = language
    }

    /// Aligns `words` to `samples` (16 kHz, whose frames and sound are `recording` and `sound`)
    /// through `reading`; `warping` is told the share of the warp done, `progress` the share of
    /// the model's work. Each examination is
    /// handed to `checkpoint` as it is done (from its thread); one in `saved` (an interrupted run's
    /// of the same words and samples: the warp finds the same stretches) is taken as it is.
    func align(
        words: [WordToken], reading: BookReading, recording: FrameFile, sound: FrameFlags, samples: RecognizerAudio,
        durationMs: Int, saved: [NarrationCheckpoint] = [],
        checkpoint: @escaping @Sendable (NarrationCheckpoint) throws -> Void = { _ in },
        warping: (Double) -> Void = { _ in }, progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) throws -> Outcome {
        precondition(reading.starts.count == words.count)
        let clock = ContinuousClock.now
        let warped = try warp(reading, onto: recording, sound: sound, progress: warping)
        // The warp's band and steps are freed, and the readings' coarse frames are not needed
        // again: hand them back before the model's searches.
        reading.frames.releaseCoarse()
        recording.releaseCoarse()
        MemoryTrim.release()
        ForgeLog.debug("warped \(reading.frames.count) frames onto \(recording.count) in \(clock.duration(to: .now))")
        let plan = Plan(starts: warped.starts, samples: samples.count)
        let frames = samples.count / Plan.samplesPerFrame + 1
        let stretches = stretches(disagreements: warped.disagreements, frames: frames)
        var examined =
            stretches.map { plan.examination($0.frames, $0.reason) }
            + probes(avoiding: stretches, frames: frames).map { plan.examination($0, .probe) }
        // Progress: the first round's share of its samples up to 0.9, then the later rounds' (each
        // planned only when the one before is done) up to 1, never going back.
        let work = Mutex((done: 0, first: 0, planned: 0, reported: 0.0))
        let report: @Sendable (Int) -> Void = { samples in
            let share = work.withLock { work in
                work.done += samples
                let first = Double(min(work.done, work.first)) / Double(max(1, work.first))
                let later =
                    work.planned > work.first
                    ? Double(max(0, work.done - work.first)) / Double(work.planned - work.first) : 0
                work.reported = max(work.reported, 0.9 * first + 0.1 * later)
                return work.reported
            }
            progress(min(1, share))
        }
        var decoded = 0
        // Stretches widened in an examination are planned as they are found.
        let decodedMore = Atomic(0)
        let extend: @Sendable (Int) -> Void = { samples in
            decodedMore.add(samples, ordering: .relaxed)
            work.withLock { $0.planned += samples }
        }
        let examine = { (examinations: [Examination]) in
            let count = examinations.reduce(0) { $0 + $1.samples.count }
            decoded += count
            work.withLock { work in
                if work.first == 0 { work.first = count }
                work.planned += count
            }
            return try self.examine(
                examinations, words: words, samples: samples, plan: plan, saved: saved,
                checkpoint: checkpoint, report: report, extend: extend)
        }
        let firstRound = try examine(examined)
        examined = firstRound.map(\.examination)
        var verdicts = firstRound.map(\.verdict)
        for index in examined.indices where examined[index].reason != .disagreement {
            examined[index].heard = Self.hears(verdicts[index].placements)
        }
        let judged = examined.filter { $0.heard != nil }
        let foreign = judged.count >= 3 && judged.filter({ $0.heard == false }).count * 2 > judged.count
        let heardShare = Self.heardShare(of: zip(examined, verdicts).filter { $0.0.heard != nil }.map(\.1))
        if !foreign {
            let rechecks = rechecks(of: examined, frames: frames, plan: plan)
            if !rechecks.isEmpty {
                ForgeLog.debug("\(rechecks.count) probe(s) did not hear their words; looking again, wider")
            }
            for (examination, verdict) in try examine(rechecks) {
                var examination = examination
                examination.heard = Self.hears(verdict.placements)
                examined.append(examination)
                verdicts.append(verdict)
            }
            ForgeLog.debug("the model heard \(heardShare) of the edges' and probes' words")
            let second = failedProbeStretches(examined, plan: plan, heardShare: heardShare)
            if !second.isEmpty { ForgeLog.debug("\(second.count) stretch(es) around probes that failed twice") }
            let stretches = try examine(second)
            verdicts += stretches.map(\.verdict)
            examined += stretches.map(\.examination)
        }
        // The searches' memory, freed into their threads' arenas, goes back before the book-long lists.
        MemoryTrim.release()
        // When most of the recording is not this text, no word is taken as heard.
        var placements = [WordPlacement?](repeating: nil, count: words.count)
        var speech = sound
        if !foreign {
            placements = words.indices.map {
                WordPlacement(
                    startMs: Int(warped.starts[$0]) * 10,
                    endMs: max(Int(warped.starts[$0]) + 1, Int(warped.ends[$0])) * 10, confidence: nil)
            }
            try Self.snap(&placements, samples: samples, jobs: jobs)
            for (found, verdict) in zip(examined, verdicts) {
                Self.settle(verdict, of: found, total: samples.count, into: &placements, speech: &speech)
            }
        }
        progress(1)
        return Outcome(
            narration: NarrationAligner.result(
                words: words, placements: placements, speech: speech, durationMs: durationMs),
            examinations: examined, foreign: foreign, examinedSamples: decoded + decodedMore.load(ordering: .relaxed),
            resumedAt: Self.resumedAt(examined, verdicts), heardShare: heardShare)
    }

    /// Each word start beside a pause moved onto the speech onset by the recording's energy
    /// (``SpeechOnsets``, a minute of the recording at a time, `jobs` minutes at once): the warp
    /// compares spectra ten milliseconds at a time, and a pause in one reading is rarely as long as
    /// in the other.
    static func snap(_ placements: inout [WordPlacement?], samples: RecognizerAudio, jobs: Int) throws {
        let minute = 60 * PocketSphinxDecoder.sampleRate
        let minutes = (samples.count + minute - 1) / minute
        // The words starting in each minute (starts never decrease).
        var firsts: [Int] = []
        var next = 0
        for block in 0...minutes {
            while next < placements.count,
                (placements[next]?.startMs ?? 0) * (PocketSphinxDecoder.sampleRate / 1000) < block * minute
            {
                next += 1
            }
            firsts.append(next)
        }
        let starts = firsts
        // The placements move into the lock and back: each minute copies its own words out and
        // writes them back moved, so the book's list is never held twice.
        let shared = Mutex([WordPlacement?]())
        shared.withLock { swap(&$0, &placements) }
        defer { shared.withLock { swap(&$0, &placements) } }
        try BlockingThreads.forEachIndex(minutes, threads: jobs, cancellation: nil) { block in
            let range = starts[block]..<max(starts[block], starts[block + 1])
            guard !range.isEmpty else { return }
            let from = block * minute
            let offsetMs = from / (PocketSphinxDecoder.sampleRate / 1000)
            let onsets = SpeechOnsets(samples: samples.samples(from..<min(samples.count, from + minute))[...])
            let local = shared.withLock { $0[range].map { $0?.shifted(by: -offsetMs) } }
            let moved = onsets.snapped(local).map { $0?.shifted(by: offsetMs) }
            shared.withLock { $0.replaceSubrange(range.lowerBound..<(range.lowerBound + moved.count), with: moved) }
        }
    }

    /// Where the warp put each word, and the examination of a stretch of the recording it makes.
    struct Plan {
        static let samplesPerFrame = PocketSphinxDecoder.sampleRate / PocketSphinxDecoder.framesPerSecond
        /// Each word's first frame in the recording, by the warp.
        let starts: [Int32]
        /// The recording's samples.
        let samples: Int

        func examination(_ frames: Range<Int>, _ reason: Examination.Reason) -> Examination {
            WarpedNarrationAligner.examination(
                frames: frames, reason: reason, starts: starts, wordCount: starts.count, samples: samples)
        }

        func frames(of examination: Examination) -> Range<Int> {
            (examination.samples.lowerBound / Self.samplesPerFrame)..<(examination.samples.upperBound
                / Self.samplesPerFrame)
        }
    }

    /// For each probe that did not hear its words, the probe again with ``probeSeconds`` more of
    /// the recording on each side.
    func rechecks(of examined: [Examination], frames: Int, plan: Plan) -> [Examination] {
        let margin = probeSeconds * PocketSphinxDecoder.framesPerSecond
        return examined.filter { $0.reason == .probe && $0.heard == false }.map { probe in
            let probed = plan.frames(of: probe)
            return plan.examination(
                max(0, probed.lowerBound - margin)..<min(frames, probed.upperBound + margin), .recheck)
        }
    }

    /// For each recheck that did not hear its words, the stretch from the examination before it to
    /// the one after it (neighbouring ones joined; the probe it looked at again is not one). None
    /// when the model heard less than ``wellHeardShare`` of the edges' and probes' words
    /// (`heardShare`): it hears the narrator poorly, fails probes where the warp is right, and
    /// the stretches, examined whole, would cost most of the run and settle nothing.
    func failedProbeStretches(_ examined: [Examination], plan: Plan, heardShare: Double = 1) -> [Examination] {
        guard heardShare >= Self.wellHeardShare else { return [] }
        let ordered = examined.filter { !$0.reason.confirms || $0.heard != false }.sorted {
            $0.samples.lowerBound < $1.samples.lowerBound
        }
        var stretches: [Examination] = []
        for probe in examined where probe.reason == .recheck && probe.heard == false {
            let before = ordered.last { $0.samples.upperBound <= probe.samples.lowerBound }?.samples.upperBound ?? 0
            let after =
                ordered.first { $0.samples.lowerBound >= probe.samples.upperBound }?.samples.lowerBound ?? plan.samples
            var frames = (before / Plan.samplesPerFrame)..<(after / Plan.samplesPerFrame)
            if let last = stretches.last, last.samples.upperBound >= before {
                frames = plan.frames(of: last).lowerBound..<frames.upperBound
                stretches.removeLast()
            }
            stretches.append(plan.examination(frames, .failedProbe))
        }
        return stretches
    }

    /// `examination` widened for its `round` (1 to ``widenings``), or nil when it needs no more:
    /// a stretch whose unheard words run into an end of it inside the recording is examined again
    /// with `step` more frames times the round on that side (the model ran out of audio there;
    /// beside a disagreement the warp can misplace words by seconds). Probes and rechecks confirm
    /// the warp and are not widened.
    static func widened(
        _ examination: Examination, placements: [WordPlacement?], round: Int, step: Int, plan: Plan
    ) -> Examination? {
        guard !examination.reason.confirms, round <= widenings else { return nil }
        let leading = placements.prefix { !NarrationAligner.isHeard($0) }.count
        let trailing = placements.reversed().prefix { !NarrationAligner.isHeard($0) }.count
        guard leading < placements.count else { return nil }
        var frames = plan.frames(of: examination)
        if examination.samples.lowerBound > 0, leading >= NarrationAligner.shortestMissingRun {
            frames = max(0, frames.lowerBound - step * round)..<frames.upperBound
        }
        if examination.samples.upperBound < plan.samples, trailing >= NarrationAligner.shortestMissingRun {
            frames = frames.lowerBound..<(frames.upperBound + step * round)
        }
        return frames == plan.frames(of: examination) ? nil : plan.examination(frames, examination.reason)
    }

    /// How many times a stretch is widened at most.
    static let widenings = 3

    /// Each word's first recording frame and the frame after its last, by the warp of `reading`
    /// onto `recording`, and the stretches of the recording (in frames) where the two part (audio
    /// without text only where at least a quarter of it is `sound`).
    private func warp(
        _ reading: BookReading, onto recording: FrameFile, sound: FrameFlags, progress: (Double) -> Void
    ) throws -> (
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
            progress(Double(upper) / Double(max(1, reading.frames.count)))
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
                case .audioWithoutText(let frames, _):
                    // A longer pause than Forge's reading makes (between chapters, say) is no disagreement.
                    let sounding = frames.filter { $0 < sound.count && sound[$0] }.count
                    if sounding * 4 >= frames.count {
                        disagreements.append(frames.lowerBound..<(frames.upperBound + 1))
                    }
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

    /// Below this share of words heard at the edges and probes, the model is taken to hear the
    /// narrator poorly (a voice with an accent the en-us model was not trained on); the voices it
    /// hears well stay well above it (docs/benchmarks.md).
    static let wellHeardShare = 0.6

    /// The share of the words of `verdicts` the model heard (1 when there are none).
    static func heardShare(of verdicts: [Verdict]) -> Double {
        let placements = verdicts.flatMap(\.placements)
        return placements.isEmpty ? 1 : NarrationAligner.heardShare(placements)
    }

    /// Whether a probe heard its words.
    static func hears(_ placements: [WordPlacement?]) -> Bool {
        placements.isEmpty || NarrationAligner.heardShare(placements) >= probeHeardShare
    }

    /// Each examination's placements (in ms from its first sample) and speech, by the model, ``jobs`` at once.
    ///
    /// A stretch the model aligns in segments of its own (``NarrationAligner/shortestSplitSeconds``
    /// or longer) is examined alone, its segments ``jobs`` at once: two such stretches side by side
    /// would hold twice the searches' memory. Shorter ones go side by side, in every round: their
    /// large searches (locating text, skipping words), each holding up to a hundred megabytes on
    /// hard audio, run alone through one ``SearchGate``, the rest beside each other.
    private func examine(
        _ examinations: [Examination], words: [WordToken], samples: RecognizerAudio, plan: Plan,
        saved: [NarrationCheckpoint],
        checkpoint: @escaping @Sendable (NarrationCheckpoint) throws -> Void,
        report: @escaping @Sendable (Int) -> Void, extend: @escaping @Sendable (Int) -> Void
    ) throws -> [(examination: Examination, verdict: Verdict)] {
        let results = Mutex([(examination: Examination, verdict: Verdict)?](repeating: nil, count: examinations.count))
        let (model, language, jobs) = (model, language, jobs)
        let step = marginSeconds * PocketSphinxDecoder.framesPerSecond
        let longest = NarrationAligner.defaultShortestSplitSeconds * PocketSphinxDecoder.sampleRate
        let alone = { (examination: Examination) in examination.samples.count >= longest }
        let long = examinations.indices.filter { alone(examinations[$0]) }
        let short = examinations.indices.filter { !alone(examinations[$0]) }
        // One widened stretch decoded at a time: their searches are the largest, and two side by
        // side doubled the process's memory on a long book.
        let widening = Mutex(())
        // Every search of every stretch passes one gate: a large one (locating text, skipping
        // words) runs with no other beside it once the process is large (a long book's).
        let gate = SearchGate(sharedBelowBytes: SearchGate.smallProcessBytes)
        let verdict: @Sendable (Examination, Int) throws -> Verdict = { examination, threads in
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
                aligner.jobs = threads
                aligner.searchGate = gate
                aligner.retriesSkips = !examination.reason.confirms
                // Inside the recording the warp placed the stretch's first word at its start; only
                // at the recording's start may an intro come first.
                let placed = try aligner.place(
                    texts: words[examination.words].map(\.text), samples: samples.stretch(examination.samples),
                    startKnown: examination.samples.lowerBound > 0)
                result = Verdict(placements: placed.placements, speech: placed.speech, saved: false)
                var done = made
                (done.placements, done.speech) = placed
                try checkpoint(done)
            }
            report(examination.samples.count)
            return result
        }
        // A stretch is widened as soon as its verdict asks for it, beside the other examinations.
        let one: @Sendable (Int, Int) throws -> Void = { index, threads in
            var examination = examinations[index]
            var found = try verdict(examination, threads)
            for round in 1...Self.widenings {
                guard
                    let wider = Self.widened(
                        examination, placements: found.placements, round: round, step: step, plan: plan)
                else { break }
                ForgeLog.debug("widening the stretch at sample \(examination.samples.lowerBound), round \(round)")
                extend(wider.samples.count)
                found = try widening.withLock { _ in try verdict(wider, threads) }
                examination = wider
            }
            results.withLock { [examination, found] in $0[index] = (examination, found) }
        }
        try BlockingThreads.forEachIndex(short.count, threads: jobs, cancellation: nil) { try one(short[$0], 1) }
        for index in long { try one(index, jobs) }
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

    /// Takes an examination's verdict: its words' placements by the model, and its speech. A word
    /// the model did not hear keeps the warp's placement in a probe or a recheck (they confirm the
    /// warp; where they failed, the stretch is examined whole), and at either end of a stretch
    /// inside the recording (the stretch's edge may cut into it).
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
            if atEdge || examination.reason.confirms, !NarrationAligner.isHeard(placement) { continue }
            placements[word] = placement?.shifted(by: offsetMs)
        }
        let firstFrame = examination.samples.lowerBound / (rate / PocketSphinxDecoder.framesPerSecond)
        for (offset, isSpeech) in result.speech.enumerated() where firstFrame + offset < speech.count {
            speech[firstFrame + offset] = isSpeech
        }
    }
}
