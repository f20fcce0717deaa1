import Foundation

/// `forge check`: measures every chapter of a finished build as `forge export` renders it (items
/// on the chapter timeline, with the export pauses, mastered when the settings ask) — or audio
/// files as they are — and checks each against a loudness profile. Reads only.
public struct ConformanceCheck: Sendable {
    public var profile: LoudnessProfile
    /// Audio measured per step, in seconds.
    static let blockSeconds = 60

    public init(profile: LoudnessProfile) {
        self.profile = profile
    }

    /// Measures audio files (exported chapters, an ACX set), each as one chapter, in the order given.
    public func run(files: [URL]) throws -> ConformanceReport {
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
            chapters.append(ConformanceReport.Chapter(
                ordinal: index + 1, title: file.lastPathComponent, fileStem: file.deletingPathExtension().lastPathComponent, levels: levels,
                violations: profile.violations(of: levels)))
        }
        let whole = try book ?? AudioLevelMeter(sampleRate: 22050)
        return ConformanceReport(
            profile: profile, chapters: chapters, book: whole.finish(),
            elapsedSeconds: BuildPipeline.seconds(since: clock))
    }

    /// Measures a finished build's chapters as `forge export` with `settings` renders them.
    public func run(outputDirectory: URL, settings: ExportSettings = ExportSettings()) throws -> ConformanceReport {
        let outputDirectory = outputDirectory.standardizedFileURL
        let pauses = settings
        let clock = ContinuousClock.now
        guard FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(Manifest.fileName).path) else {
            throw StoreError.notAnOutputDirectory(path: outputDirectory.path)
        }
        let store = ObjectStore(root: outputDirectory)
        let timelines = try Manifest.reading(directory: outputDirectory) { manifest in
            try TimelineBuilder(store: store, manifest: manifest, settings: pauses).timelines()
        }
        var chapters: [ConformanceReport.Chapter] = []
        let bookMeter = try AudioLevelMeter(sampleRate: timelines.first?.sampleRate ?? 22050)
        for timeline in timelines {
            let meter = try AudioLevelMeter(sampleRate: timeline.sampleRate)
            if settings.mastering != nil {
                // Mastering needs the whole chapter (its gain follows the chapter's loudness).
                let samples = try ChapterAudio.exported(timeline, store: store, settings: settings)
                meter.add(samples[...])
                if timeline.sampleRate == timelines.first?.sampleRate { bookMeter.add(samples[...]) }
            } else {
                // Streamed a minute at a time: memory does not grow with the chapter.
                let step = Self.blockSeconds * timeline.sampleRate
                var start = 0
                while start < timeline.totalSamples {
                    let end = min(start + step, timeline.totalSamples)
                    let block = try ChapterAudio.render(timeline, store: store, samples: start..<end)
                    meter.add(block[...])
                    if timeline.sampleRate == timelines.first?.sampleRate { bookMeter.add(block[...]) }
                    start = end
                }
            }
            let levels = meter.finish()
            chapters.append(ConformanceReport.Chapter(
                ordinal: timeline.chapter.ordinal, title: timeline.chapter.title, fileStem: timeline.fileStem, levels: levels,
                violations: profile.violations(of: levels)))
        }
        return ConformanceReport(profile: profile, chapters: chapters, book: bookMeter.finish(), elapsedSeconds: BuildPipeline.seconds(since: clock))
    }
}
