import Foundation
import Synchronization

/// The verify stage: each chapter's timeline (items plus the export pauses) is cut into 2-minute
/// chunks at floor(t / 120 s) × 120 s, each chunk is transcribed by pocketsphinx with a language
/// model built from the book, and scored against the words the alignment places in it.
///
/// A chunk's key covers its items' audio objects and places, the pauses and the recognizer's
/// configuration; a rerun transcribes only chunks that are missing or whose key changed, those
/// covering changed items first.
public struct VerificationRun: Sendable {
    public static let chunkMs = 120_000
    public static let version = "verify-1"
    /// An item is flagged when at least this many of its words in a chunk went unheard, and they
    /// are at least ``flagShare`` of its words there (a clean item in a noisy stretch can lose three words; a wrong, cut or silent one loses most).
    static let flagWords = 3
    static let flagShare = 0.6

    public var outputDirectory: URL
    public var settings: VerifySettings
    public var pauses: ExportSettings
    public var language: String

    public init(outputDirectory: URL, settings: VerifySettings, pauses: ExportSettings, language: String) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.settings = settings
        self.pauses = pauses
        self.language = language
    }

    /// Verifies from an output directory no build is using (takes its lock).
    public func run(cancellation: CancellationFlag = CancellationFlag(), progress: @escaping @Sendable (ChunkReport) -> Void = { _ in }) throws -> VerifyReport {
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path) else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        let lock = try OutputLock(directory: outputDirectory)
        // Opened for writing: chunks are recorded, and an older manifest gains the chunk tables.
        let manifest = try Manifest(directory: outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        return try run(using: manifest, build: nil, cancellation: cancellation, progress: progress)
    }

    /// Each chunk is recorded as soon as it is scored, so a stop (Ctrl-C: no new chunk starts)
    /// keeps every finished one and the next run fills only the gaps.
    func run(
        using manifest: Manifest, build: Int64?, cancellation: CancellationFlag, progress: @escaping @Sendable (ChunkReport) -> Void
    ) throws -> VerifyReport {
        let clock = ContinuousClock.now
        let model = RecognizerModel.standard
        do {
            try model.checkAvailable()
            guard model.supports(language: language) else { throw RecognitionError.unsupportedLanguage(language) }
        } catch {
            return .unavailable(error.localizedDescription, maxWordErrorRate: settings.maxWordErrorRate)
        }
        let store = ObjectStore(root: outputDirectory)
        let timelines = try TimelineBuilder(store: store, manifest: manifest, settings: pauses).timelines()
        let recognizer = "\(Self.version)/\(LanguageModelBuilder.version)/\(model.fingerprint)"

        // The book's own language model, cached by its content.
        var sentences: [[String]] = []
        var vocabulary = Set<String>()
        for timeline in timelines {
            for item in timeline.items {
                for sentence in item.sentences {
                    let tokens = TranscriptNormalizer.tokens(sentence.text)
                    sentences.append(tokens)
                    vocabulary.formUnion(tokens)
                }
            }
        }
        let arpa = LanguageModelBuilder.arpa(sentences: sentences)
        let modelFile = outputDirectory.appendingPathComponent("verify/lm-\(ContentHash.sha256Hex(Array(arpa.utf8)).prefix(16)).arpa")
        if !FileManager.default.fileExists(atPath: modelFile.path) {
            var writer = ExportWriter(root: outputDirectory.appendingPathComponent("verify"))
            try writer.write(Array(arpa.utf8), to: modelFile.lastPathComponent)
        }

        // Plan: which chunks need transcribing, changed ones first.
        let stored = try manifest.storedChunks()
        var positions = Set<ChunkPosition>()
        var work: [(timeline: Int, start: Int, end: Int, key: String, changed: Bool)] = []
        var reports: [ChunkPosition: ChunkReport] = [:]
        for (index, timeline) in timelines.enumerated() {
            var start = 0
            while start < timeline.durationMs {
                let end = min(start + Self.chunkMs, timeline.durationMs)
                let position = ChunkPosition(chapter: timeline.chapter.ordinal, startMs: start)
                positions.insert(position)
                let key = chunkKey(timeline, start: start, end: end, recognizer: recognizer, store: store)
                if let previous = stored[position], previous.key == key {
                    reports[position] = previous.report
                } else {
                    work.append((index, start, end, key, stored[position] != nil))
                }
                start = end
            }
        }
        try manifest.removeChunks(except: positions)
        work.sort { $0.changed && !$1.changed }

        // Decode: `jobs` threads, each with its own decoder; chapters' audio rendered once each.
        let audio = Mutex<[Int: [Int16]]>([:])
        let queue = Mutex(work[...])
        let results = Mutex<[ChunkReport]>([])
        let failure = Mutex<Error?>(nil)
        let threads = max(1, min(settings.jobs ?? ProcessInfo.processInfo.activeProcessorCount, work.count))
        let words = Array(vocabulary)
        let language = self.language
        let settings = self.settings
        DispatchQueue.concurrentPerform(iterations: work.isEmpty ? 0 : threads) { _ in
            do {
                let transcriber = try ChunkTranscriber(model: model, languageModel: modelFile, vocabulary: words, language: language)
                while !cancellation.isCancelled, let chunk = queue.withLock({ $0.popFirst() }) {
                    let timeline = timelines[chunk.timeline]
                    let samples = try audio.withLock { cache -> [Int16] in
                        if let cached = cache[chunk.timeline] { return cached }
                        let rendered = Resampler.resample(try ChapterAudio.render(timeline, store: store), from: timeline.sampleRate, to: PocketSphinxDecoder.sampleRate)
                        cache[chunk.timeline] = rendered
                        return rendered
                    }
                    let from = min(samples.count, chunk.start * PocketSphinxDecoder.sampleRate / 1000)
                    let to = min(samples.count, chunk.end * PocketSphinxDecoder.sampleRate / 1000)
                    let utterances = try transcriber.transcribe(samples[from..<to])
                    let (report, heard) = Self.score(timeline, start: chunk.start, end: chunk.end, utterances: utterances)
                    let sentences = heard.map { utterance in
                        (startMs: chunk.start + utterance.first!.startMs, endMs: chunk.start + utterance.last!.endMs,
                         text: utterance.map(\.text).joined(separator: " "))
                    }
                    try manifest.recordChunk(
                        report, key: chunk.key, recognizer: recognizer, passed: !report.isFlagged(settings.maxWordErrorRate),
                        sentences: sentences, build: build)
                    results.withLock { $0.append(report) }
                    progress(report)
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
                _ = queue.withLock { $0.removeAll() }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        for report in results.withLock({ $0 }) {
            reports[ChunkPosition(chapter: report.chapter, startMs: report.startMs)] = report
        }
        let ordered = reports.values.sorted { ($0.chapter, $0.startMs) < ($1.chapter, $1.startMs) }
        return VerifyReport(
            available: true, unavailableReason: nil, missingChunks: positions.count - ordered.count, chunks: ordered, maxWordErrorRate: settings.maxWordErrorRate, recognizer: recognizer,
            elapsedSeconds: BuildPipeline.seconds(since: clock), audioMs: timelines.reduce(0) { $0 + $1.durationMs })
    }

    /// Everything a chunk's transcription depends on: the audio objects on its stretch of the
    /// timeline and where they sit, and the recognizer. Each object file's size, inode and
    /// modification time are part of it too, so a file changed behind the store's back (the
    /// faults verification exists to catch) is transcribed again, without re-hashing every file.
    func chunkKey(_ timeline: ChapterTimeline, start: Int, end: Int, recognizer: String, store: ObjectStore) -> String {
        var fields = ["stage": "verify", "recognizer": recognizer, "from": String(start), "to": String(end)]
        var audio = ""
        for item in timeline.items where item.endMs > start && item.startMs < end {
            var status = stat()
            _ = stat(store.url(forRelativePath: item.audioPath).path, &status)
            audio += "\(item.record.audioKey ?? "-")@\(item.startMs)-\(item.endMs):\(status.st_size):\(status.st_ino):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec);"
        }
        fields["audio"] = audio
        return ObjectKey.digest(fields)
    }

    /// Scores a chunk: the reference is every word whose start lies in [start, end).
    static func score(_ timeline: ChapterTimeline, start: Int, end: Int, utterances: [[RecognizedWord]]) -> (ChunkReport, [[RecognizedWord]]) {
        var reference: [String] = []
        var owners: [(item: String, word: String)] = []
        for item in timeline.items where item.endMs > start && item.startMs < end {
            for word in item.words {
                guard let timing = word.timing, timing.startMs >= start, timing.startMs < end else { continue }
                for token in TranscriptNormalizer.normalize(word.token.text) {
                    reference.append(token)
                    owners.append((item.record.id, word.token.text))
                }
            }
        }
        let hypothesis = utterances.flatMap { $0.map(\.text) }.flatMap(TranscriptNormalizer.normalize)
        let rate = WordErrorRate(reference: reference, hypothesis: hypothesis)
        var missing: [String: [String]] = [:]
        var counts: [String: Int] = [:]
        var order: [String] = []
        for (index, owner) in owners.enumerated() {
            if counts[owner.item] == nil { order.append(owner.item) }
            counts[owner.item, default: 0] += 1
            if !rate.heard[index] { missing[owner.item, default: []].append(owner.word) }
        }
        let flagged = order.compactMap { id -> ChunkReport.FlaggedItem? in
            let unheard = missing[id] ?? []
            guard unheard.count >= flagWords, Double(unheard.count) >= flagShare * Double(counts[id] ?? 1) else { return nil }
            return ChunkReport.FlaggedItem(itemID: id, missingWords: unheard)
        }
        let report = ChunkReport(
            chapter: timeline.chapter.ordinal, startMs: start, endMs: end, wordErrorRate: rate.rate, referenceWords: rate.referenceCount,
            errors: rate.errors, flaggedItems: flagged, transcribed: true)
        return (report, utterances)
    }
}
