import Foundation
import Synchronization

/// `forge export`: derives human-facing files from a finished build's manifest and objects,
/// under `<output dir>/exports/`. Every file is written to a temporary name and renamed into
/// place, so an interrupted export never leaves a half-written file behind.
package struct Exporter: Sendable {
    package let outputDirectory: URL
    package let settings: ExportSettings
    /// Checked between files and chapters: once set, the export stops with ``ExportError/cancelled(written:)``.
    package let cancellation: CancellationFlag?
    /// Told after each chapter of each phase (`forge export` prints it).
    package var progress: ExportProgress.Sink?
    /// ACX chapter files made elsewhere for these very inputs (a shard's, taken from the remote
    /// cache), by export path: copied, not mastered again.
    var preparedFiles: [String: URL] = [:]
    /// The book as the build laid it out from this manifest (the timeline stage's): used, and not
    /// laid out again, where it has the settings' pauses.
    var timeline: BookTimeline?
    /// The reader's recording, which an EPUB of their own book carries as it came (a sync of MP3 or
    /// AAC) instead of chapter audio encoded for it.
    package var carriedRecording: CarriedRecording?

    /// Where the last export's stamp is kept, under `exports/`.
    static let stampPath = "exports/.forge-export-stamp"

    package init(
        outputDirectory: URL, settings: ExportSettings, cancellation: CancellationFlag? = nil,
        progress: ExportProgress.Sink? = nil
    ) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.settings = settings
        self.cancellation = cancellation
        self.progress = progress
    }

    /// The last export's report when it is up to date (and not `force`d), else a new export's,
    /// whose stamp is then recorded.
    func exportUnlessUpToDate(using manifest: Manifest, force: Bool) throws -> ExportReport {
        let items = try manifest.items()
        let cover = cover(items: items)
        let stamp = try stamp(manifest, items: items, cover: cover)
        if !force, let report = upToDate(stamp) { return report }
        let report = try export(using: manifest, cover: cover)
        try record(stamp, report)
        return report
    }

    /// The last export's report when it was made from the inputs `stamp` hashes and every file
    /// it wrote is still there (as a regular file); nil otherwise.
    func upToDate(_ stamp: String) -> ExportReport? {
        guard let data = try? OwnedDirectory(root: outputDirectory).read(Self.stampPath) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        guard lines.count >= 2, lines[0] == stamp else { return nil }
        let counts = lines[1].split(separator: " ").compactMap { Int($0) }
        guard counts.count == 2 else { return nil }
        let files = lines.dropFirst(2).filter { !$0.isEmpty }
        guard files.allSatisfy({ OwnedDirectory.entry(at: outputDirectory.appendingPathComponent($0).path) == .file })
        else { return nil }
        var report = ExportReport(files: Array(files), chapters: counts[0], durationMs: counts[1])
        report.upToDate = true
        return report
    }

    /// Records what an export made and from what (the stamp, the counts, the files).
    func record(_ stamp: String, _ report: ExportReport) throws {
        var writer = ExportWriter(outputDirectory: outputDirectory, folder: "exports")
        let text = ([stamp, "\(report.chapters) \(report.durationMs)"] + report.files).joined(separator: "\n") + "\n"
        try writer.write(Array(text.utf8), to: ".forge-export-stamp")
    }

    /// A hash of everything exports are derived from: every item's place, audio and alignment,
    /// the chapters, and the settings.
    func stamp(_ manifest: Manifest) throws -> String {
        let items = try manifest.items()
        return try stamp(manifest, items: items, cover: cover(items: items))
    }

    /// The cover the M4B and the EPUB carry, when they are among the formats.
    private func cover(items: [ItemRecord]) -> BookCover? {
        guard settings.formats.contains(.m4b) || settings.formats.contains(.epub) else { return nil }
        return BookCover.resolve(settings, sourcePaths: items.lazy.map(\.sourcePath))
    }

    private func stamp(_ manifest: Manifest, items: [ItemRecord], cover: BookCover?) throws -> String {
        // The credits' audio by its paths in order: a dictionary's description has no fixed order.
        var described = settings
        described.creditAudio = [:]
        var text =
            "\(described)|\(settings.creditAudio.sorted { $0.key < $1.key }.map(\.value))|\(ForgeVersion.current)"
        // The M4B and the ACX set are resampled (to 44.1 kHz and the AAC rate): a new resampler
        // makes new files, so books exported by the old one are exported again once.
        if settings.formats.contains(.m4b) || settings.formats.contains(.acx) { text += "|\(Resampler.identity)" }
        if let cover { text += "|cover:\(cover.digest)" }
        for chapter in try manifest.chapters() { text += "|c\(chapter.ordinal):\(chapter.title)" }
        // The audio's bytes, not only its key: an item rebuilt after `fsck --repair` has the same key
        // but, espeak-ng's output depending on what its process spoke before, maybe other samples and
        // timings — its exports must follow.
        let objects = try manifest.objects(withKeys: items.compactMap(\.audioKey))
        for item in items {
            let audio = item.audioKey.flatMap { objects[$0]?.sha256 } ?? "-"
            text +=
                "|\(item.id):\(item.ordinal):\(item.chapter):\(item.audioKey ?? "-"):\(audio):\(item.durationMs ?? -1):\(item.alignmentKey ?? "-")"
        }
        return ContentHash.sha256Hex(Array(text.utf8))
    }

    /// Exports while the caller (a build) holds the directory's lock. Each format goes through
    /// the book a chapter at a time (words loaded per chapter, audio streamed item by item to its
    /// file), so memory follows the longest chapter, not the book.
    func export(using manifest: Manifest) throws -> ExportReport {
        try export(using: manifest, cover: cover(items: try manifest.items()))
    }

    private func export(using manifest: Manifest, cover: BookCover?) throws -> ExportReport {
        var settings = settings
        if settings.narrator == nil { settings.narrator = try manifest.items().first?.voice }
        let date = try ExportDate.resolve(manifest)
        let store = ObjectStore(root: outputDirectory)
        let book =
            try timeline?.laidOut(with: settings)
            ?? TimelineBuilder(store: store, manifest: manifest, settings: settings).book()
        var writer = ExportWriter(outputDirectory: outputDirectory, folder: "exports", cancellation: cancellation)
        writer.progress = progress
        let formats = Set(settings.formats)
        // Chapters at one sample rate are encoded to AAC once each, on every core, and the M4B joins
        // them; otherwise the M4B is one AAC stream that ffmpeg encodes on one core, written on a
        // thread of its own beside the other formats, which take the other cores meanwhile.
        // An EPUB that carries the reader's recording needs no chapter audio of its own.
        let carriedRecording = NarratedEPUB.sourceBook(of: book.chapters) != nil ? carriedRecording : nil
        let sharesAAC = Self.sharesAAC(settings) && (carriedRecording == nil || formats.contains(.m4b))
        let commonRate = ChapterEncoder.commonRate(book.chapters)
        let chapterEncoder =
            commonRate != nil && sharesAAC
            ? ChapterEncoder(chapters: book.chapters, settings: settings, store: store, manifest: manifest) : nil
        let m4bChapters = formats.contains(.m4b) ? try m4bChapters(book.chapters, settings: settings, store: store) : []
        let m4b =
            formats.contains(.m4b) && chapterEncoder == nil
            ? startM4B(m4bChapters, settings: settings, cover: cover, store: store) : nil
        var encoded: [[StoredObject]]?
        var encodedCredits: [StoredObject] = []
        var encodedChapters = 0
        do {
            if let chapterEncoder {
                let encoding = try chapterEncoder.encodeAll(
                    jobs: ChapterAudio.encodingJobs(settings), cancellation: cancellation, progress: progress)
                encoded = chapterEncoder.byChapter(encoding.objects)
                encodedChapters = encoding.made
                if formats.contains(.m4b), let encoded {
                    encodedCredits = try writeEncodedM4B(
                        m4bChapters, encoded: encoded, settings: settings, cover: cover, store: store,
                        manifest: manifest, to: &writer)
                }
            }
            try writeChapterFiles(book, formats: formats, settings: settings, store: store, to: &writer)
            if formats.contains(.epub) {
                let audio: EPUBAudio =
                    if settings.epubAudio == .aac, let encoded, let commonRate {
                        .aac(encoded: encoded, sampleRate: commonRate)
                    } else { .mp3 }
                try writeEPUB(
                    book, settings: settings, audio: audio, recording: carriedRecording, cover: cover, modified: date,
                    store: store, to: &writer)
            }
            if formats.contains(.acx) {
                try writeACXSet(book, settings: settings, store: store, to: &writer)
            }
        } catch {
            // Stop the M4B too, and count what it finished among the files written whole.
            m4b?.stop.cancel()
            let m4bWritten = (try? m4b?.wait(for: cancellation))?.count ?? 0
            if case ExportError.cancelled(let written) = error {
                throw ExportError.cancelled(written: written + m4bWritten)
            }
            throw error
        }
        try m4b?.finish(into: &writer, cancellation: cancellation)
        if let chapterEncoder, let encoded {
            try chapterEncoder.removeOthers(than: Set((encoded.joined() + encodedCredits).map(\.key)))
        }
        try removeStaleFiles(keeping: writer.written)
        var report = ExportReport(files: writer.written, chapters: book.chapters.count, durationMs: book.durationMs)
        report.encodedChapters = encodedChapters
        return report
    }

    /// The M4B's chapters: the book's between its credits
    /// (``AudiobookExport/creditChapters(settings:store:sampleRate:chapterCount:)``), laid out at the
    /// book's rate; the opening's ordinal is 0, the closing's after the last chapter's.
    private func m4bChapters(_ chapters: [ChapterTimeline], settings: ExportSettings, store: ObjectStore) throws
        -> [ChapterTimeline]
    {
        // The first chapter's rate: the M4B's whole stream is at it (its common rate, when there is one).
        let rate = chapters.first?.sampleRate ?? AudioSettings().sampleRate
        let credits = try AudiobookExport.creditChapters(
            settings: settings, store: store, sampleRate: rate, chapterCount: chapters.count)
        return [credits.opening].compactMap { $0 } + chapters + [credits.closing].compactMap { $0 }
    }

    /// Writes the M4B of `chapters` (the book's between its credits) from the book's shared
    /// encodings (`encoded`, by chapter), encoding each credit alone: the book's chapters stay
    /// encoded as the EPUB and a shard have them, with no credit beside them. Returns the credits'
    /// encodings, which the store keeps.
    private func writeEncodedM4B(
        _ chapters: [ChapterTimeline], encoded: [[StoredObject]], settings: ExportSettings, cover: BookCover?,
        store: ObjectStore, manifest: Manifest, to writer: inout ExportWriter
    ) throws -> [StoredObject] {
        var joined: [[StoredObject]] = []
        var credits: [StoredObject] = []
        var book = encoded[...]
        for chapter in chapters {
            guard chapter.chapter.ordinal == 0 || chapter.chapter.ordinal > encoded.count else {
                joined.append(book.popFirst() ?? [])
                continue
            }
            let encoder = ChapterEncoder(chapters: [chapter], settings: settings, store: store, manifest: manifest)
            let pieces = try encoder.encodeAll(jobs: 1, cancellation: cancellation, progress: nil).objects
            joined.append(pieces)
            credits += pieces
        }
        try AudiobookExport.writeM4B(
            chapters, settings: settings, cover: cover, store: store, encoded: joined, to: &writer)
        return credits
    }

    /// The files made chapter by chapter: each chapter's audio, the JSON timings, captions and
    /// read-along pages, as `formats` ask.
    private func writeChapterFiles(
        _ book: BookTimeline, formats: Set<ExportFormat>, settings: ExportSettings, store: ObjectStore,
        to writer: inout ExportWriter
    ) throws {
        // The HTML page plays the chapter audio, so it needs the audio export beside it.
        let audioFormat = Self.audioFormat(of: book.chapters)
        if formats.contains(.audio) || formats.contains(.html) {
            try writeChapterAudio(book.chapters, settings: settings, format: audioFormat, store: store, to: &writer)
        }
        if formats.contains(.json) { try JSONTimingsExport.write(book, audioFormat: audioFormat, to: &writer) }
        if !formats.isDisjoint(with: [.vtt, .srt, .html]) {
            try writeCaptionsAndPages(book, formats: formats, settings: settings, audioFormat: audioFormat, to: &writer)
        }
    }

    /// Each chapter's audio file, a chapter per core (mastered, a chapter is played through several times).
    private func writeChapterAudio(
        _ chapters: [ChapterTimeline], settings: ExportSettings, format audioFormat: AudioSettings.Format,
        store: ObjectStore,
        to writer: inout ExportWriter
    ) throws {
        let (exportSettings, cancellation) = (settings, cancellation)
        let meter = PhaseMeter(phase: "audio", lengths: chapters.map(\.durationMs), sink: progress)
        try writer.writeInParallel(
            chapters.count, jobs: ChapterAudio.encodingJobs(settings), phase: "audio", meter: meter
        ) { index, fileWriter in
            let timeline = chapters[index]
            let path = ExportPaths.chapterAudio(timeline, format: audioFormat)
            let label = fileWriter.finalPath(path)
            try fileWriter.stream(path) { descriptor in
                try ChapterAudio.write(
                    timeline, store: store, settings: exportSettings, format: audioFormat, to: descriptor, label: label,
                    cancellation: cancellation,
                    reading: meter.touch
                ) { meter.advance(index, samples: $0, rate: timeline.sampleRate) }
            }
        }
    }

    /// Captions (WebVTT, SubRip) and read-along pages, each chapter's from one load of its words.
    private func writeCaptionsAndPages(
        _ book: BookTimeline, formats: Set<ExportFormat>, settings: ExportSettings, audioFormat: AudioSettings.Format,
        to writer: inout ExportWriter
    ) throws {
        let links = book.chapters.map {
            ReadAlongPage.ChapterLink(fileStem: $0.fileStem, title: $0.chapter.title, part: $0.chapter.part)
        }
        if formats.contains(.html) {
            try writer.write(
                Array(ReadAlongPage.contents(title: settings.title, language: settings.language, chapters: links).utf8),
                to: "html/index.html")
        }
        var position = 0
        let progress = progress
        try book.forEachTimed { timeline in
            defer {
                position += 1
                progress?(ExportProgress(phase: "captions", done: position, total: book.chapters.count))
            }
            if !formats.isDisjoint(with: [.vtt, .srt]) {
                let cues = CaptionCue.cues(for: timeline, maxCharacters: settings.maxCueCharacters)
                if formats.contains(.vtt) {
                    try writer.write(
                        Array(CaptionCue.webVTT(cues).utf8), to: ExportPaths.captions(timeline, fileExtension: "vtt"))
                }
                if formats.contains(.srt) {
                    try writer.write(
                        Array(CaptionCue.subRip(cues).utf8), to: ExportPaths.captions(timeline, fileExtension: "srt"))
                }
            }
            if formats.contains(.html) {
                let page = ReadAlongPage.html(
                    timeline, title: settings.title, language: settings.language,
                    audioPath: "../" + ExportPaths.chapterAudio(timeline, format: audioFormat),
                    audioType: audioFormat.mimeType,
                    chapters: links, position: position)
                try writer.write(Array(page.utf8), to: ExportPaths.page(timeline))
            }
        }
    }

    /// The EPUB 3 with media overlays: a book read from an EPUB 3 gets its own documents back with
    /// overlays; anything else a generated edition.
    private func writeEPUB(
        _ book: BookTimeline, settings: ExportSettings, audio: EPUBAudio, recording: CarriedRecording?,
        cover: BookCover?, modified date: Date, store: ObjectStore,
        to writer: inout ExportWriter
    ) throws {
        if let source = NarratedEPUB.sourceBook(of: book.chapters),
            let edition = try NarratedEPUB(
                book: source, timeline: book, settings: settings, audio: audio, recording: recording, modified: date)
        {
            try writer.produce("epub/\(edition.fileName)") { temporary in
                try edition.write(
                    to: temporary, timelines: book.chapters, settings: settings, store: store,
                    cancellation: cancellation, progress: progress)
            }
        } else {
            try writer.produce(ExportPaths.epub(title: settings.title)) { temporary in
                try MediaOverlayBook.write(
                    book, settings: settings, audio: audio, cover: cover, store: store, cancellation: cancellation,
                    modified: date, progress: progress, to: temporary)
            }
        }
    }

    /// The ACX set, mastered to ACX whatever the other exports use, with its room tone.
    private func writeACXSet(
        _ book: BookTimeline, settings: ExportSettings, store: ObjectStore, to writer: inout ExportWriter
    ) throws {
        let acx = Self.acxSettings(settings)
        try AudiobookExport.writeACXSet(
            book.laidOut(with: acx).chapters, settings: acx, store: store, to: &writer, prepared: preparedFiles)
    }

    /// Exports of an earlier build that this one did not write again: a book renamed (another
    /// title) keeps no EPUB or M4B under its old name, a shortened book no files of chapters it no
    /// longer has, an edited one no item files of items gone. Only in the folders this export
    /// wrote into, of the kinds it wrote there, and named as Forge names them (a file of the user's
    /// stays).
    private func removeStaleFiles(keeping written: [String]) throws {
        var keptByFolder: [String: Set<String>] = [:]
        for path in written where path.hasPrefix("exports/") {
            guard let slash = path.lastIndex(of: "/") else { continue }
            keptByFolder[String(path[..<slash]), default: []].insert(String(path[path.index(after: slash)...]))
        }
        let owned = OwnedDirectory(root: outputDirectory)
        for (folder, kept) in keptByFolder.sorted(by: { $0.key < $1.key }) {
            let subfolder = String(folder.dropFirst("exports/".count))
            // Only files of the kinds written now: captions as VTT leave an earlier export's SRT.
            let kinds = Set(kept.map { $0.split(separator: ".").last.map(String.init) ?? "" })
            _ = try owned.removeFiles(in: folder) { name in
                !kept.contains(name) && kinds.contains(name.split(separator: ".").last.map(String.init) ?? "")
                    && Self.isExportName(name, in: subfolder)
            }
        }
    }

    /// Whether `name` in `folder` (under `exports/`) is named as an export writes its files.
    static func isExportName(_ name: String, in folder: String) -> Bool {
        switch folder {
        case "epub": name.hasSuffix(".epub")
        case "m4b": name.hasSuffix(".m4b")
        case "acx": name.hasSuffix(".mp3") && name.first.map { $0.isASCII && $0.isNumber } == true && name.contains("-")
        case "json/items": name.hasSuffix(".json") && !name.hasPrefix(".")
        case "audio", "json", "captions", "html": name.hasPrefix("chapter-")
        default: false
        }
    }

    /// The M4B being written on its own thread.
    final class M4BJob: Sendable {
        /// Set to stop it (the export failed or was stopped).
        let stop = CancellationFlag()
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<Result<[String], any Error>?>(nil)

        /// Waits for it to finish, passing a stop of `cancellation` on to it, and returns the
        /// paths it wrote (or throws its error).
        func wait(for cancellation: CancellationFlag?) throws -> [String] {
            while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if cancellation?.isCancelled == true { stop.cancel() }
            }
            finished.signal()
            return try result.withLock { $0! }.get()
        }

        /// Waits for it (``wait(for:)``) and counts the files it wrote among `writer`'s.
        func finish(into writer: inout ExportWriter, cancellation: CancellationFlag?) throws {
            do {
                writer.adopt(try wait(for: cancellation))
            } catch ExportError.cancelled(let written) {
                throw ExportError.cancelled(written: writer.written.count + written)
            }
        }
    }

    private func startM4B(
        _ chapters: [ChapterTimeline], settings: ExportSettings, cover: BookCover?, store: ObjectStore
    ) -> M4BJob {
        let job = M4BJob()
        let (directory, progress) = (outputDirectory, progress)
        BlockingThreads.start(
            1,
            body: { _ in
                var writer = ExportWriter(outputDirectory: directory, folder: "exports", cancellation: job.stop)
                writer.progress = progress
                let result = Result { () throws -> [String] in
                    try AudiobookExport.writeM4B(
                        chapters, settings: settings, cover: cover, store: store, encoded: nil, to: &writer)
                    return writer.written
                }
                job.result.withLock { $0 = result }
            }, whenAllFinished: { job.finished.signal() })
        return job
    }

    /// The settings the ACX set is made with: mastered to ACX whatever the other exports use.
    static func acxSettings(_ settings: ExportSettings) -> ExportSettings {
        var acx = settings
        if acx.mastering?.profile != MasteringSettings.acx.profile { acx.mastering = .acx }
        return acx
    }

    /// Whether these exports are made from each chapter's AAC encoding (the M4B, an EPUB with AAC audio).
    static func sharesAAC(_ settings: ExportSettings) -> Bool {
        settings.formats.contains(.m4b) || (settings.formats.contains(.epub) && settings.epubAudio == .aac)
    }

    /// The recipe's audio format, as the items' audio objects show it.
    static func audioFormat(of timelines: [ChapterTimeline]) -> AudioSettings.Format {
        let ext = timelines.first?.items.first.map { URL(fileURLWithPath: $0.audioPath).pathExtension } ?? "wav"
        return AudioSettings.Format(rawValue: ext) ?? .wav
    }
}
