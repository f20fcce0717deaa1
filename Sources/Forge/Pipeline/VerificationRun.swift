import Foundation
import Synchronization

/// The verify stage: each chapter's timeline (items plus the export pauses) is cut into 2-minute
/// chunks at floor(t / 120 s) × 120 s, each chunk is heard by pocketsphinx (``ChunkTranscriber``:
/// each utterance aligned to its expected words, decoded freely with a trigram model of the text
/// of the items the chunk overlaps where a word is not found; a dictionary of the book's words),
/// and scored against the words the alignment places in it. (Aligning first is faster than
/// decoding freely and flags the same faults; a model of each chunk's items searches less than one
/// of the chapter or the book and mis-hears fewer words, while wrong audio still fails, as its
/// words are not the chunk's.)
///
/// A chunk's key covers its items' audio objects and places, the pauses and the recognizer's
/// configuration; a rerun transcribes only chunks that are missing or whose key changed, those
/// covering changed items first.
package struct VerificationRun: Sendable {
    package static let chunkMs = ChunkReport.chunkMs
    package static let version = "verify-8"
    /// An item is flagged when at least this many of its words in a chunk went unheard, and they
    /// are at least ``flagShare`` of its words there (a clean item in a noisy stretch can lose three words; a wrong, cut or silent one loses most).
    static let flagWords = ChunkReport.flagWords
    static let flagShare = 0.6
    /// Words this close to where a chunk cuts the timeline do not count towards flagging their item.
    static let cutMarginMs = 1_000
    /// Audio either side of a chunk that its transcription may hear too, so that the utterances its
    /// cuts run through are heard whole (only those: the rest of it is not decoded). A sentence
    /// cut at 3 s was misheard back to its start and flagged clean items; speech without a pause of
    /// 250 ms runs for 15 s rarely.
    static let contextMs = 15_000
    /// Items with at least this many words in a chunk count a word heard only within a run of heard words.
    static let runCheckWords = 8
    /// A word heard in an item's audio this long after its text's last word ends (or before its
    /// first starts) is speech the text does not have.
    static let extraSpeechMarginMs = 500

    package var outputDirectory: URL
    package var settings: VerifySettings
    package var pauses: ExportSettings
    package var language: String
    /// Only the chunks of these chapters (a shard's); nil: the whole book.
    var chapters: Set<Int>?
    /// Only the chunks this shard finishes: its chapters' and, of a chapter longer than a piece
    /// (``ChapterTimeline/pieceLimitMs``), those at its part of the chapter. Nil: every chunk.
    var shardAssignment: ShardAssignment?

    package init(outputDirectory: URL, settings: VerifySettings, pauses: ExportSettings, language: String) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.settings = settings
        self.pauses = pauses
        self.language = language
    }

    /// Verifies from an output directory no build is using (takes its lock).
    package func run(
        cancellation: CancellationFlag = CancellationFlag(),
        progress: @escaping @Sendable (ChunkReport) -> Void = { _ in }
    ) throws -> VerifyReport {
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path)
        else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        let lock = try OutputLock(directory: outputDirectory)
        cancellation.beginKeepingWork()
        try OwnedDirectory(root: outputDirectory).leftovers(remove: true)
        // Opened for writing: chunks are recorded, and an older manifest gains the chunk tables.
        let manifest = try Manifest(directory: outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        return try run(using: manifest, build: nil, cancellation: cancellation, progress: progress)
    }

    /// Each chunk is recorded as soon as it is scored, so a stop (Ctrl-C: no new chunk starts)
    /// keeps every finished one and the next run fills only the gaps.
    func run(
        using manifest: Manifest, build: Int64?, cancellation: CancellationFlag,
        progress: @escaping @Sendable (ChunkReport) -> Void
    ) throws -> VerifyReport {
        switch try plan(using: manifest) {
        case .unavailable(let report): return report
        case .ready(var plan):
            try screen(&plan, using: manifest, cancellation: cancellation)
            var report = try transcribe(
                plan, using: manifest, build: build, cancellation: cancellation, progress: progress)
            try answerFlags(&report, timelines: plan.timelines, using: manifest)
            return report
        }
    }

    /// Each flagged item's audio digest, and the flags a person accepted for that very audio
    /// (``VerifySettings/accepted``): an item whose audio changed since is judged again.
    func answerFlags(_ report: inout VerifyReport, timelines: [ChapterTimeline], using manifest: Manifest) throws {
        let flagged = report.allFlaggedItemIDs
        guard !flagged.isEmpty else { return }
        var keys: [String: String] = [:]
        for timeline in timelines {
            for item in timeline.items where flagged.contains(item.record.id) {
                keys[item.record.id] = item.record.audioKey
            }
        }
        let objects = try manifest.objects(withKeys: Array(Set(keys.values)))
        for (id, key) in keys {
            guard let digest = objects[key]?.sha256 else { continue }
            report.flaggedAudio[id] = digest
            if settings.accepted[id] == digest { report.acceptedItemIDs.insert(id) }
        }
    }

    /// What a verification has to do: every chunk's position and key, the reports of chunks
    /// already scored, and the chunks to transcribe.
    struct Plan: Sendable {
        var started: ContinuousClock.Instant
        var model: RecognizerModel
        var recognizer: String
        var timelines: [ChapterTimeline]
        var positions: Set<ChunkPosition>
        var reports: [ChunkPosition: ChunkReport]
        var work: [Chunk]
        /// Every item's quick check (``screen(_:using:cancellation:)``); nil until screened.
        var screen: ScreenReport?
        /// Chunks the quick check left out of its sample.
        var unsampled = 0
    }

    enum Planned: Sendable {
        case unavailable(VerifyReport)
        case ready(Plan)
    }

    /// Plans the run: chunks whose key and files are unchanged keep their reports; the others,
    /// changed ones first, are to be transcribed. Chunks gone from the timelines are removed.
    /// `book`: the book as the build laid it out, taken instead of laying it out again (not for
    /// a shard's chapters).
    func plan(using manifest: Manifest, book: BookTimeline? = nil) throws -> Planned {
        let clock = ContinuousClock.now
        let model = RecognizerModel.standard
        do {
            try model.checkAvailable()
            guard model.supports(language: language) else { throw RecognitionError.unsupportedLanguage(language) }
        } catch {
            return .unavailable(.unavailable(ErrorReason.message(error), maxWordErrorRate: settings.maxWordErrorRate))
        }
        let store = ObjectStore(root: outputDirectory)
        var builder = TimelineBuilder(store: store, manifest: manifest, settings: pauses)
        builder.chapters = chapters
        let laidOut = try chapters == nil ? book?.laidOut(with: pauses) ?? builder.book() : builder.book()
        let timelines = try laidOut.chapters.map(laidOut.timed)
        let options = ChunkTranscriber.decoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
            separator: ",")
        let recognizer = "\(Self.version)/\(LanguageModelBuilder.version)/\(model.fingerprint)/\(options)"

        // Plan: which chunks need transcribing, changed ones first.
        let stored = try manifest.storedChunks()
        var positions = Set<ChunkPosition>()
        var work: [Chunk] = []
        var reports: [ChunkPosition: ChunkReport] = [:]
        var contentChecked: [String: Bool] = [:]
        for (index, timeline) in timelines.enumerated() {
            var start = 0
            let whole = timeline.durationMs <= ChapterTimeline.pieceLimitMs
            while start < timeline.durationMs {
                let end = min(start + Self.chunkMs, timeline.durationMs)
                let position = ChunkPosition(chapter: timeline.chapter.ordinal, startMs: start)
                positions.insert(position)
                let middle = Double(start + end) / 2 / Double(timeline.durationMs)
                if let shardAssignment,
                    !shardAssignment.owns(chapter: timeline.chapter.ordinal, at: middle, whole: whole)
                {
                    start = end
                    continue
                }
                let key = chunkKey(timeline, start: start, end: end, recognizer: recognizer)
                let files = fileSignature(timeline, start: start, end: end, store: store)
                if let previous = stored[position], previous.key == key,
                    try previous.files == files
                        || contentUnchanged(
                            timeline, start: start, end: end, manifest: manifest, store: store, checked: &contentChecked
                        )
                {
                    if previous.files != files { try manifest.updateChunkFiles(position, files: files) }
                    reports[position] = previous.report
                } else {
                    work.append(
                        Chunk(
                            timeline: index, startMs: start, endMs: end, key: key, files: files,
                            changed: stored[position] != nil))
                }
                start = end
            }
        }
        try manifest.removeChunks(except: positions)
        work.sort { $0.changed && !$1.changed }
        return .ready(
            Plan(
                started: clock, model: model, recognizer: recognizer, timelines: timelines, positions: positions,
                reports: reports, work: work))
    }

    /// Transcribes and scores the plan's chunks and reports on every chunk.
    func transcribe(
        _ plan: Plan, using manifest: Manifest, build: Int64?, cancellation: CancellationFlag,
        progress: @escaping @Sendable (ChunkReport) -> Void
    ) throws -> VerifyReport {
        let (clock, model, recognizer, timelines, positions) = (
            plan.started, plan.model, plan.recognizer, plan.timelines, plan.positions
        )
        // Stopped during the screen: no dictionary is built and no decoder loaded (seconds on a
        // long book) only to stop before the first chunk.
        let work = cancellation.isCancelled ? [] : plan.work
        var reports = plan.reports
        let store = ObjectStore(root: outputDirectory)

        let decodingModel = try decodingModel(for: work, timelines: timelines, base: model)

        // Decode: `jobs` threads, each with its own decoder; each chunk's stretch of audio is
        // rendered on its own, so memory stays flat however long the book.
        let queue = Mutex(work[...])
        let results = Mutex<[ChunkReport]>([])
        let failure = Mutex<Error?>(nil)
        let counts = Mutex((aligned: 0, decoded: 0, heardAgain: 0, cleared: 0))
        let threads = max(1, min(settings.jobs ?? ProcessInfo.processInfo.activeProcessorCount, work.count))
        let settings = self.settings
        BlockingThreads.forEach(work.isEmpty ? 0 : threads) { _ in
            do {
                let transcriber = try ChunkTranscriber(model: decodingModel)
                while !cancellation.isCancelled, let chunk = queue.withLock({ $0.popFirst() }) {
                    guard
                        let transcript = try hear(
                            chunk, in: timelines[chunk.timeline], transcriber: transcriber, store: store,
                            cancellation: cancellation)
                    else { break }
                    var (report, heard) = Self.score(
                        timelines[chunk.timeline], start: chunk.startMs, end: chunk.endMs,
                        utterances: transcript.utterances)
                    guard
                        let second = try secondHearing(
                            of: report.flaggedItems, in: timelines[chunk.timeline], chunk: chunk,
                            transcriber: transcriber, store: store, cancellation: cancellation)
                    else { break }
                    report.flaggedItems = second.flags
                    counts.withLock {
                        $0.aligned += transcript.aligned
                        $0.decoded += transcript.decoded
                        $0.heardAgain += second.hearings.heard
                        $0.cleared += second.hearings.cleared
                    }
                    let sentences = heard.map { utterance in
                        (
                            startMs: chunk.startMs + utterance.first!.startMs,
                            endMs: chunk.startMs + utterance.last!.endMs,
                            text: utterance.map(\.text).joined(separator: " ")
                        )
                    }
                    try manifest.recordChunk(
                        report, key: chunk.key, files: chunk.files, recognizer: recognizer,
                        passed: !report.isFlagged(settings.maxWordErrorRate),
                        sentences: sentences, build: build)
                    results.withLock { $0.append(report) }
                    progress(report)
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
                queue.withLock { $0.removeAll() }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        for report in results.withLock({ $0 }) {
            reports[ChunkPosition(chapter: report.chapter, startMs: report.startMs)] = report
        }
        let ordered = reports.values.sorted { ($0.chapter, $0.startMs) < ($1.chapter, $1.startMs) }
        return VerifyReport(
            available: true, unavailableReason: nil, missingChunks: positions.count - ordered.count - plan.unsampled,
            chunks: ordered,
            maxWordErrorRate: settings.maxWordErrorRate, recognizer: recognizer,
            elapsedSeconds: BuildPipeline.seconds(since: clock),
            audioMs: timelines.reduce(0) { $0 + $1.durationMs }, mode: settings.mode, screen: plan.screen,
            unsampledChunks: plan.unsampled,
            alignedUtterances: counts.withLock { $0.aligned }, decodedUtterances: counts.withLock { $0.decoded },
            itemsHeardAgain: counts.withLock { $0.heardAgain }, flagsCleared: counts.withLock { $0.cleared }
        )
    }

    /// What the recognizer hears in `chunk` of `timeline` (times from the chunk's start), its
    /// language model written first; nil when stopped. The chunk is rendered with up to
    /// ``contextMs`` either side: an utterance its cut runs through is heard whole (a sentence cut
    /// in two is misheard back to its start), and only what is heard inside the chunk is kept.
    private func hear(
        _ chunk: Chunk, in timeline: ChapterTimeline, transcriber: ChunkTranscriber, store: ObjectStore,
        cancellation: CancellationFlag
    ) throws -> ChunkTranscriber.Transcript? {
        let rate = timeline.sampleRate
        let range = (chunk.startMs * rate / 1000)..<min(timeline.totalSamples, chunk.endMs * rate / 1000)
        let context = Self.contextMs * rate / 1000
        let outer = max(0, range.lowerBound - context)..<min(timeline.totalSamples, range.upperBound + context)
        let leadMs = (range.lowerBound - outer.lowerBound) * 1000 / rate
        let outerStartMs = chunk.startMs - leadMs
        let samples = RecognizerInput.samples(
            try ChapterAudio.render(timeline, store: store, samples: outer)[...], from: rate)
        let expected = Self.expectedSentences(timeline, start: chunk.startMs, end: chunk.endMs)
        let name = Self.languageModelName(timeline, startMs: chunk.startMs)
        var writer = ExportWriter(outputDirectory: outputDirectory, folder: "verify")
        try writer.write(Array(LanguageModelBuilder.arpa(sentences: expected).utf8), to: name)
        let languageModel = OwnedDirectory(root: outputDirectory).url("verify/" + name)
        let words = Self.expectedWords(timeline, start: outerStartMs, end: outerStartMs + (outer.count * 1000 / rate))
        let heard = try transcriber.transcribe(
            samples[...], within: leadMs..<(leadMs + chunk.endMs - chunk.startMs), expected: words,
            languageModel: languageModel, cancellation: cancellation)
        return heard?.shifted(by: -leadMs, keeping: 0..<(chunk.endMs - chunk.startMs))
    }

    /// The words of a chunk's items that the synthesizer started in [start, end), in order, with
    /// their times from `start`: what each of its utterances is aligned to first.
    static func expectedWords(_ timeline: ChapterTimeline, start: Int, end: Int) -> [ChunkTranscriber.ExpectedWord] {
        placedTokens(timeline, start: start, end: end).map { .init(token: $0.token, startMs: $0.startMs - start) }
    }

    /// Per item, the words heard in its audio well after its text's last word or before its first
    /// (``extraSpeechMarginMs``): an engine that read on past its text, or repeated itself.
    static func extraSpeech(_ timeline: ChapterTimeline, start: Int, end: Int, utterances: [[RecognizedWord]])
        -> [String: [String]]
    {
        // Each item of the chunk once: its audio, and where its text's words begin and end.
        let items = timeline.items(overlappingMs: start..<end).compactMap {
            item -> (id: String, audio: Range<Int>, text: ClosedRange<Int>)? in
            guard let first = item.words.first(where: { $0.timing != nil })?.timing,
                let last = item.words.last(where: { $0.timing != nil })?.timing
            else { return nil }
            return (item.record.id, item.startMs..<item.endMs, first.startMs...max(first.startMs, last.endMs))
        }
        var extra: [String: [String]] = [:]
        for word in utterances.joined() {
            let (wordStart, wordEnd) = (start + word.startMs, start + word.endMs)
            guard let item = items.first(where: { $0.audio.contains(wordStart) }) else { continue }
            if wordStart >= item.text.upperBound + extraSpeechMarginMs
                || wordEnd <= item.text.lowerBound - extraSpeechMarginMs
            {
                extra[item.id, default: []].append(word.text)
            }
        }
        return extra
    }

    /// Every dictionary token of the words that start in [start, end) of a chapter, in order: its
    /// item, the word as written, and where the word starts in the chapter. A chunk is aligned to
    /// these and scored against them.
    private static func placedTokens(_ timeline: ChapterTimeline, start: Int, end: Int) -> [(
        item: String, word: String, token: String, startMs: Int
    )] {
        var tokens: [(item: String, word: String, token: String, startMs: Int)] = []
        for item in timeline.items(overlappingMs: start..<end) {
            for word in item.words {
                guard let timing = word.timing, timing.startMs >= start, timing.startMs < end else { continue }
                for token in TranscriptNormalizer.normalize(word.token.text) {
                    tokens.append((item.record.id, word.token.text, token, timing.startMs))
                }
            }
        }
        return tokens
    }

    /// What a chunk's language model is built from: the sentences of the items it overlaps and of
    /// one item either side (a chunk that is only a chapter's closing pause overlaps none).
    static func expectedSentences(_ timeline: ChapterTimeline, start: Int, end: Int) -> [[String]] {
        let items = timeline.items
        let first = items.firstIndex { $0.endMs > start } ?? items.count
        let last = items.lastIndex { $0.startMs < end } ?? -1
        let lower = max(0, min(first, last) - 1)
        let upper = min(items.count - 1, max(first, last) + 1)
        guard lower <= upper else { return [] }
        return items[lower...upper].flatMap { item in item.sentences.map { TranscriptNormalizer.tokens($0.text) } }
    }

    /// `lm-chapter-003-chunk-002.arpa`: the language model of a chapter's third chunk.
    static func languageModelName(_ timeline: ChapterTimeline, startMs: Int) -> String {
        "lm-\(timeline.fileStem)-chunk-\((startMs / chunkMs).zeroPadded(to: 3)).arpa"
    }

    /// The decoders' model: a dictionary of the book's words, cached in verify/ by content. (The
    /// language model is each chunk's own, `verify/lm-chapter-NNN-chunk-KKK.arpa`, written as the
    /// chunk is decoded and kept until the next run, for a person to decode it again.)
    private func decodingModel(for work: [Chunk], timelines: [ChapterTimeline], base: RecognizerModel) throws
        -> RecognizerModel
    {
        // The last run's chunk models, and the chapter models of earlier versions.
        if !work.isEmpty {
            _ = try OwnedDirectory(root: outputDirectory).removeFiles(in: "verify") {
                $0.hasPrefix("lm-") && $0.hasSuffix(".arpa")
            }
        }
        var decodingModel = base
        if !work.isEmpty {
            let words = Mutex(Set<String>())
            DispatchQueue.concurrentPerform(iterations: timelines.count) { chapter in
                var chapterWords = Set<String>()
                for item in timelines[chapter].items {
                    for sentence in item.sentences {
                        chapterWords.formUnion(TranscriptNormalizer.tokens(sentence.text))
                    }
                }
                words.withLock { $0.formUnion(chapterWords) }
            }
            let dictionary = try PronouncingDictionary(
                words: words.withLock { $0 }, base: base.dictionary, language: language)
            decodingModel.dictionary = try writeCached(dictionary.text, prefix: "dict", suffix: "dict")
        }
        return decodingModel
    }

    /// Everything a chunk's transcription depends on, from content only: the audio objects on its
    /// stretch of the timeline (content-addressed keys) and where they sit, and the recognizer.
    /// A copied output directory has the same keys, so its verification stands.
    func chunkKey(_ timeline: ChapterTimeline, start: Int, end: Int, recognizer: String) -> String {
        var fields = ["stage": "verify", "recognizer": recognizer, "from": String(start), "to": String(end)]
        var audio = ""
        for item in timeline.items(overlappingMs: start..<end) {
            audio += "\(item.record.audioKey ?? "-")@\(item.startMs)-\(item.endMs);"
        }
        fields["audio"] = audio
        return ObjectKey.digest(fields)
    }

    /// The size, inode and change time of each audio file on a chunk's stretch. When they differ
    /// from what the chunk recorded, the files are hashed before its result is trusted again: a file
    /// changed behind the store's back (the faults verification exists to catch) is heard again,
    /// while a copy of the directory costs one hash of each file, not a transcription.
    func fileSignature(_ timeline: ChapterTimeline, start: Int, end: Int, store: ObjectStore) -> String {
        var signature = ""
        for item in timeline.items(overlappingMs: start..<end) {
            var status = stat()
            _ = lstat(store.url(forRelativePath: item.audioPath).path, &status)
            signature += "\(status.st_size):\(status.st_ino):\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec);"
        }
        return signature
    }

    /// Whether every audio file on a chunk's stretch still hashes to what the manifest recorded
    /// for it (`checked` remembers files already hashed in this run).
    func contentUnchanged(
        _ timeline: ChapterTimeline, start: Int, end: Int, manifest: Manifest, store: ObjectStore,
        checked: inout [String: Bool]
    ) throws -> Bool {
        let items = timeline.items(overlappingMs: start..<end)
        let objects = try manifest.objects(withKeys: items.compactMap(\.record.audioKey))
        // Read without following a link planted in the store.
        let owned = OwnedDirectory(root: store.root)
        for item in items {
            if let known = checked[item.audioPath] {
                if !known { return false }
                continue
            }
            guard let key = item.record.audioKey, let object = objects[key] else { return false }
            let same =
                (try? ContentHash.sha256Hex(of: FileHandle(fileDescriptor: owned.openForReading(item.audioPath))))
                == object.sha256
            checked[item.audioPath] = same
            if !same { return false }
        }
        return true
    }

    /// Writes `text` to `verify/<prefix>-<hash>.<suffix>` unless that file exists, and removes
    /// older versions (same prefix, other hash) so edits do not pile up models.
    private func writeCached(_ text: String, prefix: String, suffix: String) throws -> URL {
        let bytes = Array(text.utf8)
        let name = "\(prefix)-\(ContentHash.sha256Hex(bytes).prefix(16)).\(suffix)"
        let owned = OwnedDirectory(root: outputDirectory)
        try owned.check("verify/" + name, lastIsFile: true)
        if OwnedDirectory.entry(at: owned.url("verify/" + name).path) != .file {
            var writer = ExportWriter(outputDirectory: outputDirectory, folder: "verify")
            try writer.write(bytes, to: name)
        }
        try owned.removeFiles(in: "verify") { old in
            old != name && old.hasSuffix("." + suffix) && old.hasPrefix(prefix + "-")
                && old.dropFirst(prefix.count + 1).count == 16 + 1 + suffix.count
        }
        return owned.url("verify/" + name)
    }

    /// A stretch of a chapter to transcribe.
    struct Chunk: Sendable {
        var timeline: Int
        var startMs: Int
        var endMs: Int
        var key: String
        var files: String
        /// Transcribed before with different audio: done first.
        var changed: Bool
    }

    /// Which of the words (each of an item in `items`) count as heard: in an item of many words
    /// (``runCheckWords``), a word heard only when a neighbour in the same item was heard too, as
    /// wrong audio still matches a scattered "the", "my" or "Mr." of the text by chance while
    /// right audio matches in runs. (Short items keep every match: one unheard word would
    /// otherwise take its neighbours with it.)
    static func heardInRuns(_ heard: [Bool], items: [String]) -> [Bool] {
        var itemWords: [String: Int] = [:]
        for item in items { itemWords[item, default: 0] += 1 }
        return heard.indices.map { index in
            let item = items[index]
            guard heard[index], itemWords[item, default: 0] >= runCheckWords else { return heard[index] }
            let before = index > 0 && items[index - 1] == item && heard[index - 1]
            let after = index + 1 < items.count && items[index + 1] == item && heard[index + 1]
            return before || after
        }
    }

    /// Scores a chunk: the reference is every word whose start lies in [start, end).
    static func score(_ timeline: ChapterTimeline, start: Int, end: Int, utterances: [[RecognizedWord]]) -> (
        ChunkReport, [[RecognizedWord]]
    ) {
        var reference: [String] = []
        var owners: [(item: String, word: String, nearCut: Bool)] = []
        for placed in placedTokens(timeline, start: start, end: end) {
            // Within a second of where the chunk cuts speech (not a chapter's start or end): the
            // decoder hears a cut utterance there, and a clean item's words near it go unheard
            // (flagging clean items). They still count in the rate.
            let nearCut =
                (start > 0 && placed.startMs < start + cutMarginMs)
                || (end < timeline.durationMs && placed.startMs >= end - cutMarginMs)
            reference.append(placed.token)
            owners.append((placed.item, placed.word, nearCut))
        }
        let hypothesis = utterances.flatMap { $0.map(\.text) }.flatMap(TranscriptNormalizer.normalize)
        let rate = WordErrorRate(reference: reference, hypothesis: hypothesis)
        var missing: [String: [String]] = [:]
        var counts: [String: Int] = [:]
        var order: [String] = []
        let heard = heardInRuns(rate.heard, items: owners.map(\.item))
        for (index, owner) in owners.enumerated() where !owners[index].nearCut {
            if counts[owner.item] == nil { order.append(owner.item) }
            counts[owner.item, default: 0] += 1
            if !heard[index] { missing[owner.item, default: []].append(owner.word) }
        }
        let extra = extraSpeech(timeline, start: start, end: end, utterances: utterances).filter {
            $0.value.count >= flagWords
        }
        // Items with no word starting in the chunk can still have spoken on into it.
        for item in timeline.items where extra[item.record.id] != nil && counts[item.record.id] == nil {
            order.append(item.record.id)
        }
        let flagged = order.compactMap { id -> ChunkReport.FlaggedItem? in
            let unheard = missing[id] ?? []
            let manyUnheard = unheard.count >= flagWords && Double(unheard.count) >= flagShare * Double(counts[id] ?? 1)
            guard manyUnheard || extra[id] != nil else { return nil }
            return ChunkReport.FlaggedItem(
                itemID: id, missingWords: manyUnheard ? unheard : [], extraWords: extra[id] ?? [])
        }
        let report = ChunkReport(
            chapter: timeline.chapter.ordinal, startMs: start, endMs: end, wordErrorRate: rate.rate,
            referenceWords: rate.referenceCount,
            errors: rate.errors, flaggedItems: flagged, transcribed: true)
        return (report, utterances)
    }
}
