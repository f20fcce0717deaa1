import Foundation

/// `forge check`: measures every chapter of a finished build as `forge export` renders it (items
/// on the chapter timeline, with the export pauses, mastered when the settings ask) — or audio
/// files as they are — and checks each against a loudness profile. Reads only.
package struct ConformanceCheck: Sendable {
    package var profile: LoudnessProfile
    /// Audio measured per step, in seconds.
    static let blockSeconds = 60

    package init(profile: LoudnessProfile) {
        self.profile = profile
    }

    /// Measures audio files (exported chapters, an ACX set), each as one chapter, in the order given.
    package func run(files: [URL]) throws -> ConformanceReport {
        let clock = ContinuousClock.now
        var chapters: [ConformanceReport.Chapter] = []
        var book: AudioLevelMeter?
        for (index, file) in files.enumerated() {
            let audio = try SoundFile.decode(fileAt: file)
            let meter = try AudioLevelMeter(sampleRate: audio.sampleRate)
            meter.add(audio.samples[...])
            if book == nil { book = try AudioLevelMeter(sampleRate: audio.sampleRate) }
            if book?.sampleRate == audio.sampleRate { book?.add(audio.samples[...]) }
            let levels = meter.finish()
            chapters.append(
                ConformanceReport.Chapter(
                    ordinal: index + 1, title: file.lastPathComponent,
                    fileStem: file.deletingPathExtension().lastPathComponent, levels: levels,
                    violations: profile.violations(of: levels)))
        }
        let whole = try book ?? AudioLevelMeter(sampleRate: 22050)
        return ConformanceReport(
            profile: profile, chapters: chapters, book: whole.finish(),
            elapsedSeconds: (ContinuousClock.now - clock).seconds, measuredChapters: chapters.count)
    }

    /// Measures a finished build's chapters as `forge export` with `settings` renders them.
    /// Levels are kept in the manifest under a key of each chapter's audio, layout and settings,
    /// so a chapter is measured again only when it changed (it takes the directory's lock).
    package func run(outputDirectory: URL, settings: ExportSettings = ExportSettings()) throws -> ConformanceReport {
        let clock = ContinuousClock.now
        let outputDirectory = outputDirectory.standardizedFileURL
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path)
        else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        let lock = try OutputLock(directory: outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        let manifest = try Manifest(directory: outputDirectory)
        let store = ObjectStore(root: outputDirectory)
        // Levels come from the audio alone: the chapters' layout, without their words.
        let timelines = try TimelineBuilder(store: store, manifest: manifest, settings: settings).book().chapters
        let variant = Self.variant(settings)
        let stored = try manifest.storedLevels()
        var measured: [(chapter: Int, key: String, levels: AudioLevels)] = []
        var chapters: [ConformanceReport.Chapter] = []
        let bookMeter = try AudioLevelMeter(sampleRate: timelines.first?.sampleRate ?? 22050)
        var bookComplete = true
        for timeline in timelines {
            let key = Self.key(timeline, variant: variant)
            let levels: AudioLevels
            if let known = stored[key] {
                levels = known
                bookComplete = false
            } else {
                levels = try measure(
                    timeline, store: store, settings: settings,
                    book: timeline.sampleRate == timelines.first?.sampleRate ? bookMeter : nil)
                measured.append((timeline.chapter.ordinal, key, levels))
            }
            chapters.append(
                ConformanceReport.Chapter(
                    ordinal: timeline.chapter.ordinal, title: timeline.chapter.title, fileStem: timeline.fileStem,
                    levels: levels,
                    violations: profile.violations(of: levels)))
        }
        if !measured.isEmpty { try manifest.recordLevels(measured, variant: variant, chapters: timelines.count) }
        // The book's own figures need every chapter's audio; when some came from the manifest,
        // its loudness is the energy mean of the chapters' (BS.1770 gating is per chapter then).
        let book = bookComplete ? bookMeter.finish() : Self.combined(chapters.map(\.levels))
        return ConformanceReport(
            profile: profile, chapters: chapters, book: book, elapsedSeconds: (ContinuousClock.now - clock).seconds,
            measuredChapters: measured.count)
    }

    private func measure(
        _ timeline: ChapterTimeline, store: ObjectStore, settings: ExportSettings, book: AudioLevelMeter?
    ) throws -> AudioLevels {
        let meter = try AudioLevelMeter(sampleRate: timeline.sampleRate)
        if settings.mastering != nil {
            // Mastered as the export writes it, streamed: memory does not grow with the chapter.
            try ChapterAudio.stream(timeline, store: store, settings: settings, cancellation: nil) { block in
                meter.add(block)
                book?.add(block)
            }
        } else {
            // Streamed a minute at a time: memory does not grow with the chapter.
            let step = Self.blockSeconds * timeline.sampleRate
            var start = 0
            while start < timeline.totalSamples {
                let end = min(start + step, timeline.totalSamples)
                let block = try ChapterAudio.render(timeline, store: store, samples: start..<end)
                meter.add(block[...])
                book?.add(block[...])
                start = end
            }
        }
        return meter.finish()
    }

    /// What levels depend on besides the audio: the layout and mastering settings and the meter.
    static func variant(_ settings: ExportSettings) -> String {
        var fields = [
            "stage": "levels", "version": "levels-1/ebur128-\(LoudnessMeter.version)",
            "sentenceMs": String(settings.sentencePauseMs),
            "paragraphMs": String(settings.paragraphPauseMs), "headMs": String(settings.chapterHeadMs),
            "tailMs": String(settings.chapterTailMs),
        ]
        let encoder = JSONEncoder()
        // Sorted, or the key would change from one process to the next (hash-ordered keys).
        encoder.outputFormatting = [.sortedKeys]
        if let mastering = settings.mastering, let json = try? encoder.encode(mastering) {
            fields["mastering"] = String(decoding: json, as: UTF8.self)
        }
        return ObjectKey.digest(fields)
    }

    /// A chapter's key: its items' audio objects and places on the timeline, and the variant.
    static func key(_ timeline: ChapterTimeline, variant: String) -> String {
        var audio = "\(timeline.sampleRate):\(timeline.totalSamples);"
        for item in timeline.items {
            audio += "\(item.record.audioKey ?? "-")@\(item.startSample)+\(item.sampleCount);"
        }
        return ObjectKey.digest(["stage": "levels", "variant": variant, "audio": audio])
    }

    /// Book figures from chapter figures: loudness and RMS as energy means weighted by duration,
    /// peaks as maxima, the noise floor as the highest, head and tail as the first and last chapter's.
    static func combined(_ levels: [AudioLevels]) -> AudioLevels {
        let total = Double(max(1, levels.reduce(0) { $0 + $1.durationMs }))
        func energyMean(_ value: (AudioLevels) -> Double) -> Double {
            let sum = levels.reduce(0.0) {
                $0 + (value($1).isFinite ? pow(10, value($1) / 10) * Double($1.durationMs) : 0)
            }
            return sum > 0 ? 10 * log10(sum / total) : -.infinity
        }
        return AudioLevels(
            integratedLoudness: energyMean(\.integratedLoudness), loudnessRange: levels.map(\.loudnessRange).max() ?? 0,
            samplePeak: levels.map(\.samplePeak).max() ?? -.infinity,
            truePeak: levels.map(\.truePeak).max() ?? -.infinity,
            rms: energyMean(\.rms), noiseFloor: levels.map(\.noiseFloor).max() ?? -.infinity,
            headSilenceMs: levels.first?.headSilenceMs ?? 0, tailSilenceMs: levels.last?.tailSilenceMs ?? 0,
            durationMs: levels.reduce(0) { $0 + $1.durationMs })
    }
}
