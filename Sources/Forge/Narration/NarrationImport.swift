import Foundation

/// `forge align narration --audio … --text …`: turns a recording of a text (a human narrator, another
/// engine) into an output directory like a build's: the text split into chapters and items,
/// each item's stretch of the recording stored as its audio object (cut halfway through the
/// pause between items, so the pieces rejoin into the original), and every word timed by
/// ``NarrationAligner``. Exports then work as for a build.
///
/// The whole alignment is cached as one object keyed on the recording's bytes, the text and the
/// aligner, so running it again aligns nothing.
package struct NarrationImport: Sendable {
    /// The recording: one file, or the files (and folders of tracks) it is made of, in order.
    package var audioFiles: [URL]
    /// The text: plain text or Markdown, or any source Forge reads (an EPUB, HTML), whose own EPUB
    /// 3 an `epub` export then keeps, with media overlays added.
    package var textFile: URL
    package var outputDirectory: URL
    package var language: String
    package var split: SplitSettings

    /// The largest share of the text not heard, or of the recording's speech not in the text,
    /// that still passes (``NarrationAlignment/unmatchedFraction``); above it the run fails (exit 1).
    package var maxUnmatched: Double

    /// Items the recording does not hold (front matter, headings a narrator does not read) are done
    /// without audio and left out of the overlays, instead of failing the run (`forge sync`).
    package var keepsUnnarrated = false

    /// How the recording is aligned: by Forge's own reading first (the default), or by the
    /// acoustic model throughout, as before it.
    package var method = NarrationMethod.warp

    /// The default `maxUnmatched`: a narrator's slips and a spoken credit pass, a skipped page
    /// in a chapter or the wrong text do not.
    package static let defaultMaxUnmatched = 0.05

    package init(
        audioFile: URL, textFile: URL, outputDirectory: URL, language: String = "en-us",
        split: SplitSettings = SplitSettings(),
        maxUnmatched: Double = NarrationImport.defaultMaxUnmatched
    ) {
        self.init(
            audioFiles: [audioFile], textFile: textFile, outputDirectory: outputDirectory, language: language,
            split: split, maxUnmatched: maxUnmatched)
    }

    package init(
        audioFiles: [URL], textFile: URL, outputDirectory: URL, language: String = "en-us",
        split: SplitSettings = SplitSettings(),
        maxUnmatched: Double = NarrationImport.defaultMaxUnmatched
    ) {
        self.audioFiles = audioFiles.map(\.standardizedFileURL)
        self.textFile = textFile.standardizedFileURL
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.language = language
        self.split = split
        self.maxUnmatched = maxUnmatched
    }

    /// The spans with their words named by item and the words' text (long texts shortened).
    static func rows(_ spans: [NarrationSpan], items: [SpeakableItem], ranges: [Range<Int>], words: [WordToken])
        -> [Manifest.NarrationSpanRow]
    {
        // Which item holds a word: ranges are in order, so a binary search.
        func locate(_ word: Int) -> (item: String, index: Int) {
            var low = 0
            var high = ranges.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if ranges[middle].lowerBound <= word { low = middle } else { high = middle - 1 }
            }
            return (items[low].id, word - ranges[low].lowerBound)
        }
        return spans.map { span in
            guard !span.words.isEmpty else {
                return Manifest.NarrationSpanRow(
                    kind: span.kind, startMs: span.startMs, endMs: span.endMs, firstWord: nil, lastWord: nil, text: nil)
            }
            let shown =
                span.words.count <= 16
                ? words[span.words].map(\.text).joined(separator: " ")
                : words[span.words.prefix(8)].map(\.text).joined(separator: " ") + " … "
                    + words[span.words.suffix(6)].map(\.text).joined(separator: " ")
            return Manifest.NarrationSpanRow(
                kind: span.kind, startMs: span.startMs, endMs: span.endMs, firstWord: locate(span.words.lowerBound),
                lastWord: locate(span.words.upperBound - 1), text: shown)
        }
    }

    /// m:ss.s, for messages about the recording.
    static func clock(_ milliseconds: Int) -> String {
        String(format: "%d:%04.1f", milliseconds / 60_000, Double(milliseconds % 60_000) / 1000)
    }

    static func milliseconds(_ frames: Int, rate: Int) -> Int { Int(Int64(frames) * 1000 / Int64(max(1, rate))) }

    /// Export settings for a narration: no pauses added, since the pieces cut from the recording
    /// already hold the narrator's own.
    package static func exportSettings(title: String, formats: [ExportFormat] = []) -> ExportSettings {
        ExportSettings(formats: formats, sentencePauseMs: 0, paragraphPauseMs: 0, chapterPauseMs: 0, title: title)
    }

    /// Imports the narration: reads and splits the text and opens the recording (nothing is
    /// written if either is unusable), then, in one build session, records the split, aligns
    /// the recording (``NarrationAlignStage``), cuts it into the items (``NarrationCutStage``)
    /// and, when every item was heard, records the chapters' timelines and writes `exports`
    /// (only when the recording passes).
    package func run(
        commandLine: String, exports: ExportSettings?,
        progress: @escaping @Sendable (NarrationProgress) -> Void = { _ in }
    ) throws -> NarrationReport {
        let clock = ContinuousClock.now
        // Before the book is read: the zygote forked on espeak-ng's first use keeps a copy of
        // the process's pages as they are then.
        EspeakEngine.start()
        ForgeLog.debug("reading the text \(textFile.path)")
        let (split, textHash) = try readText()
        // The documents the split was made from are gone: hand their memory back (the alignment's
        // threads, allocating from arenas of their own, would never reuse it).
        MemoryTrim.release()
        let recording = try RecordingFiles(audioFiles)
        // One file libsndfile reads is checked before anything is written; joined files once joined.
        var reader = recording.isOneDirectFile ? try Self.openRecording(recording.files[0]) : nil
        let model = RecognizerModel.standard
        try model.checkAvailable()

        let workspace = try OutputWorkspace(directory: outputDirectory)
        // Beside the workspace's own sweep: the recording's temporary files a killed run left.
        RecordingFiles.removeLeftovers(in: workspace.store.owned)
        defer { withExtendedLifetime(workspace) {} }
        let audioFile = try recording.prepared(in: outputDirectory) {
            progress(.joining(joined: $0, files: recording.files.count))
        }
        if reader == nil { reader = try Self.openRecording(audioFile) }
        let words = split.items.reduce(0) { $0 + $1.wordCount }
        // A recording that cannot hold a twentieth of its text is another's (a poem against a novel):
        // refused now, not after reading and searching it. A longer part of the text is aligned, and
        // the text past its end reported.
        if let reader, let held = Self.heldShare(words: words, recording: reader), held < Self.leastHeldShare,
            1 - held > maxUnmatched
        {
            throw NarrationError.recordingTooShort(
                path: audioFile.path,
                durationMs: NarrationImport.milliseconds(reader.promisedFrames, rate: reader.sampleRate),
                words: words, heldShare: held)
        }
        let audioHash = try ContentHash.sha256Hex(fileAt: audioFile)
        let manifest = workspace.manifest
        let exportSettings = exports ?? Self.exportSettings(title: textFile.deletingPathExtension().lastPathComponent)
        let alignedBy = reader.map { Self.method(method, words: words, recording: $0) } ?? method
        let identity = NarrationContext.identity(model: model, method: alignedBy)
        let session = try BuildSession.begin(
            BuildRecord(
                recipePath: textFile.path, recipeHash: textHash, toolVersion: ForgeVersion.current,
                engine: "narration", engineVersion: identity, commandLine: commandLine, stages: "split,align",
                startedAt: BuildSession.timestamp(),
                settings: RecordedSettings(exports: exportSettings).json), in: manifest)
        guard let reader else {
            throw NarrationError.unreadableRecording(path: audioFile.path, reason: "it could not be opened")
        }
        let context = NarrationContext(
            audioFile: audioFile, reader: reader, audioHash: audioHash, store: workspace.store, manifest: manifest,
            buildID: session.buildID,
            model: model, language: language, method: alignedBy)
        do {
            _ = try manifest.synchronize(with: split)
            let text = NarratedText(split)
            let aligned = try NarrationAlignStage(progress: progress).run(text, in: context)
            let pieces = try NarrationCutStage(keepsUnnarrated: keepsUnnarrated) { progress(.cutting($0)) }
                .run((text, aligned), in: context)
            let spans = Self.rows(aligned.narration.spans, items: split.items, ranges: text.ranges, words: text.words)
            try manifest.recordNarrationSpans(spans)
            let missingItems = split.items.count - pieces.keptItems
            let passed = (missingItems == 0 || keepsUnnarrated) && aligned.narration.unmatchedFraction <= maxUnmatched
            var warnings = aligned.warnings
            var exported: [String] = []
            if missingItems == 0 || keepsUnnarrated {
                let book = try TimelineStage<NarrationContext>(settings: exportSettings)
                    .run(Set(split.items.map(\.id)), in: context)
                if let exports, !exports.formats.isEmpty, passed {
                    let stage = NarrationExportStage(
                        settings: exports, recording: recording, durationMs: aligned.durationMs
                    ) { progress(.exporting($0)) }
                    let written = try stage.run(book, in: context)
                    exported = written.files
                    warnings += written.warnings
                }
            }
            try session.finish(
                .init(
                    outcome: passed ? .succeeded : .failed, total: split.items.count,
                    reused: aligned.realigned ? 0 : pieces.keptItems, failed: keepsUnnarrated ? 0 : missingItems))
            let narration = aligned.narration
            var report = NarrationReport(
                outputDirectory: outputDirectory.path, items: split.items.count, words: text.words.count,
                durationMs: aligned.durationMs,
                unheard: pieces.unheard, reusedAlignment: !aligned.realigned, resumedFromMs: aligned.resumedFromMs,
                exportedFiles: exported,
                elapsedSeconds: BuildPipeline.seconds(since: clock), warnings: warnings, spans: spans,
                unmatchedWords: narration.unmatchedWords,
                speechMs: narration.speechMs, unmatchedSpeechMs: narration.unmatchedSpeechMs,
                unmatchedFraction: narration.unmatchedFraction,
                maxUnmatched: maxUnmatched, itemsNotInRecording: missingItems,
                exportsSkipped: exports.map { !$0.formats.isEmpty } == true && exported.isEmpty)
            report.keepsUnnarrated = keepsUnnarrated
            report.examinedMs = aligned.examinedMs
            return report
        } catch {
            session.abandon(.init(outcome: .failed, total: split.items.count))
            throw error
        }
    }

    /// The fastest pace, in words a minute, a recording is taken to read its whole text at.
    static let fastestWordsPerMinute = 400
    /// A recording that holds less of its text than this, at the fastest pace, is refused at once.
    static let leastHeldShare = 0.05

    /// `method`, unless the warp cannot serve: it pairs the whole text with the whole recording,
    /// so a recording far shorter than its text (read faster than ``fastestWordsPerMinute``: a
    /// chapter against a novel, the wrong file) is aligned by windows, whose work follows the
    /// recording and which report the text past its end.
    static func method(_ method: NarrationMethod, words: Int, recording reader: SoundFile.Reader) -> NarrationMethod {
        guard method == .warp, let held = heldShare(words: words, recording: reader) else { return method }
        return held < 1 ? .windows : method
    }

    /// The largest share of `words` the recording can hold, read at ``fastestWordsPerMinute`` (at
    /// most 1); nil when its length is not known before it is decoded.
    static func heldShare(words: Int, recording reader: SoundFile.Reader) -> Double? {
        guard reader.exactLength, reader.sampleRate > 0, words > 0 else { return nil }
        let minutes = Double(reader.promisedFrames) / Double(reader.sampleRate) / 60
        return min(1, minutes * Double(fastestWordsPerMinute) / Double(words))
    }

    /// The text split into chapters and items, and its digest: plain text and Markdown as they
    /// are; an EPUB or HTML through the document readers, so items keep their documents and elements.
    private func readText() throws -> (SplitResult, String) {
        let format = SourceFile.inferredFormat(for: textFile)
        let split: SplitResult
        let digest: String
        switch format {
        case .text, .markdown:
            let source = try SourceReader.read(textFile)
            split = Splitter(settings: self.split).split([(textFile.path, format, source)])
            digest = ContentHash.sha256Hex(Array(source.utf8))
        default:
            let documents = try SourceLoader().load([SourceFile(url: textFile, format: format)]).documents
            split = Splitter(settings: self.split, language: language).split(documents.map(SplitSource.document))
            digest = try ContentHash.sha256Hex(fileAt: textFile)
        }
        guard !split.items.isEmpty else { throw TextError.noSpeakableText(files: [textFile.path]) }
        return (split, digest)
    }

    /// The recording, opened to be read a block at a time; one that cannot be read or holds no
    /// audio is the user's input to fix (exit 2).
    private static func openRecording(_ audioFile: URL) throws -> SoundFile.Reader {
        let reader: SoundFile.Reader
        do {
            reader = try SoundFile.Reader(url: audioFile)
        } catch {
            switch error {
            case .unreadable(_, let reason), .encodingFailed(_, let reason):
                throw NarrationError.unreadableRecording(path: audioFile.path, reason: reason)
            }
        }
        if reader.exactLength && reader.promisedFrames == 0 {
            throw NarrationError.unreadableRecording(path: audioFile.path, reason: "it holds no audio frames")
        }
        return reader
    }
}
