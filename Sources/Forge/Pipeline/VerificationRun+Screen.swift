import Foundation
import Synchronization

extension VerificationRun {
    /// Screens every item of the plan, in both modes (the full check then also reports what no
    /// transcription hears: clipping, level jumps, noise), and in quick mode keeps in the plan's work
    /// only the sampled chunks (``VerifyMode/isSampled(chunkKey:)``) and those holding a flagged item.
    func screen(_ plan: inout Plan, using manifest: Manifest, cancellation: CancellationFlag) throws {
        plan.screen = try screen(plan.timelines, manifest: manifest, cancellation: cancellation)
        guard settings.mode == .quick else { return }
        let suspect = Set(
            (plan.screen?.flagged ?? []).flatMap { item in
                stride(
                    from: item.startMs / Self.chunkMs * Self.chunkMs, to: max(item.endMs, item.startMs + 1),
                    by: Self.chunkMs
                ).map {
                    ChunkPosition(chapter: item.chapter, startMs: $0)
                }
            })
        let timelines = plan.timelines
        let sampled = plan.work.filter { chunk in
            VerifyMode.isSampled(chunkKey: chunk.key)
                || suspect.contains(
                    ChunkPosition(chapter: timelines[chunk.timeline].chapter.ordinal, startMs: chunk.startMs))
        }
        plan.unsampled = plan.work.count - sampled.count
        plan.work = sampled
    }

    /// The quick check over every item on `timelines`: each audio file is read once, hashed against
    /// the manifest and measured (``ItemSignal``), on `jobs` threads, one file at a time each, so
    /// memory holds one item per thread; meanwhile espeak-ng reads each item's text (``SpokenReading``:
    /// what the text takes to say). Then each voice's profile is made from its items and every item
    /// judged (``ItemScreen``). Nil when `cancellation` stopped it.
    func screen(_ timelines: [ChapterTimeline], manifest: Manifest, cancellation: CancellationFlag) throws
        -> ScreenReport?
    {
        let clock = ContinuousClock.now
        let items = timelines.flatMap(\.items)
        let chapters = timelines.flatMap { timeline in timeline.items.map { _ in timeline.chapter.ordinal } }
        let digests = try manifest.objects(withKeys: Array(Set(items.compactMap(\.record.audioKey)))).mapValues(
            \.sha256)
        let owned = OwnedDirectory(root: outputDirectory)
        // Audio a build left in the remote cache is judged by what its entry says it measures.
        let remote = try manifest.remoteObjects()
        let measured = Mutex<[Int: (signal: ItemSignal, changed: Bool)]>([:])
        // espeak-ng's state is one per process: the readings are made on one thread, beside the measuring.
        let readings = Mutex<[SpokenReading?]>([])
        let read = DispatchSemaphore(value: 0)
        let (texts, languages) = (
            items.map(\.record.text), items.map { Self.readingLanguage(voice: $0.record.voice, book: language) }
        )
        // espeak-ng forks its synthesis zygote when it starts: here, before the measuring threads
        // run, never beside them (a fork while another thread held the runtime's metadata lock left
        // the zygote deadlocked, holding the command's output open after it exited).
        EspeakEngine.start()
        BlockingThreads.start(
            1,
            body: { _ in
                let engine = try? EspeakEngine()
                var made: [SpokenReading?] = []
                made.reserveCapacity(texts.count)
                for (text, language) in zip(texts, languages) {
                    if cancellation.isCancelled { break }
                    made.append(engine?.reading(of: text, language: language))
                }
                readings.withLock { $0 = made }
            }, whenAllFinished: { read.signal() })
        let threads = settings.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        try BlockingThreads.forEachIndex(items.count, threads: threads, cancellation: cancellation) { index in
            let item = items[index]
            if let left = item.record.audioKey.flatMap({ remote[$0] }) {
                measured.withLock { $0[index] = (left.signal, false) }
                return
            }
            let bytes = [UInt8](try owned.read(item.audioPath))
            let changed = item.record.audioKey.flatMap { digests[$0] } != ContentHash.sha256Hex(bytes)
            let audio = try SoundFile.decode(bytes, label: item.audioPath)
            let signal = ItemSignal(samples: audio.samples, sampleRate: audio.sampleRate)
            measured.withLock { $0[index] = (signal, changed) }
        }
        read.wait()
        if cancellation.isCancelled { return nil }
        let results = measured.withLock { $0 }
        let spoken = readings.withLock { $0 }

        var byVoice: [String: [VoiceProfile.Measured]] = [:]
        for (index, item) in items.enumerated() {
            guard let result = results[index] else { continue }
            let reading = index < spoken.count ? spoken[index] : nil
            byVoice[item.record.voice ?? "", default: []].append(
                .init(characters: item.record.text.count, reading: reading, signal: result.signal))
        }
        let profiles = byVoice.compactMapValues { VoiceProfile($0) }
        var flagged: [ScreenReport.FlaggedItem] = []
        for (index, item) in items.enumerated() {
            guard let result = results[index] else { continue }
            var findings = result.changed ? [ScreenFinding.changedSinceBuild] : []
            let reading = index < spoken.count ? spoken[index] : nil
            findings += ItemScreen.findings(
                characters: item.record.text.count, reading: reading, signal: result.signal,
                profile: profiles[item.record.voice ?? ""])
            if !findings.isEmpty {
                flagged.append(
                    .init(
                        itemID: item.record.id, chapter: chapters[index], startMs: item.startMs, endMs: item.endMs,
                        findings: findings))
            }
        }
        return ScreenReport(
            items: items.count, flagged: flagged, profiledVoices: profiles.count,
            elapsedSeconds: BuildPipeline.seconds(since: clock))
    }

    /// The language espeak-ng reads an item's text in: an espeak-ng voice's own (`en-us` of
    /// `espeak-ng:en-us+klatt?rate=175`), else the book's.
    static func readingLanguage(voice: String?, book: String) -> String {
        guard let voice, voice.hasPrefix("espeak-ng:") else { return book }
        let id = voice.dropFirst("espeak-ng:".count).prefix { $0 != "?" && $0 != "+" }
        return id.isEmpty ? book : String(id)
    }
}
