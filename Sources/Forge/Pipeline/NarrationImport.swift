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
    package var audioFile: URL
    package var textFile: URL
    package var outputDirectory: URL
    package var language: String
    package var split: SplitSettings

    /// The largest share of the text not heard, or of the recording's speech not in the text,
    /// that still passes (``NarrationAlignment/unmatchedFraction``); above it the run fails (exit 1).
    package var maxUnmatched: Double

    /// The default `maxUnmatched`: a narrator's slips and a spoken credit pass, a skipped page
    /// in a chapter or the wrong text do not.
    package static let defaultMaxUnmatched = 0.05

    package init(
        audioFile: URL, textFile: URL, outputDirectory: URL, language: String = "en-us", split: SplitSettings = SplitSettings(),
        maxUnmatched: Double = NarrationImport.defaultMaxUnmatched
    ) {
        self.audioFile = audioFile.standardizedFileURL
        self.textFile = textFile.standardizedFileURL
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.language = language
        self.split = split
        self.maxUnmatched = maxUnmatched
    }

    /// The spans with their words named by item and the words' text (long texts shortened).
    static func rows(_ spans: [NarrationSpan], items: [SpeakableItem], ranges: [Range<Int>], words: [WordToken]) -> [Manifest.NarrationSpanRow] {
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
                return Manifest.NarrationSpanRow(kind: span.kind, startMs: span.startMs, endMs: span.endMs, firstWord: nil, lastWord: nil, text: nil)
            }
            let shown = span.words.count <= 16
                ? words[span.words].map(\.text).joined(separator: " ")
                : words[span.words.prefix(8)].map(\.text).joined(separator: " ") + " … " + words[span.words.suffix(6)].map(\.text).joined(separator: " ")
            return Manifest.NarrationSpanRow(
                kind: span.kind, startMs: span.startMs, endMs: span.endMs, firstWord: locate(span.words.lowerBound),
                lastWord: locate(span.words.upperBound - 1), text: shown)
        }
    }

    /// Export settings for a narration: no pauses added, since the pieces cut from the recording
    /// already hold the narrator's own.
    /// m:ss.s, for messages about the recording.
    static func clock(_ milliseconds: Int) -> String {
        String(format: "%d:%04.1f", milliseconds / 60_000, Double(milliseconds % 60_000) / 1000)
    }

    static func milliseconds(_ frames: Int, rate: Int) -> Int { Int(Int64(frames) * 1000 / Int64(max(1, rate))) }

    package static func exportSettings(title: String, formats: [ExportFormat] = []) -> ExportSettings {
        ExportSettings(formats: formats, sentencePauseMs: 0, paragraphPauseMs: 0, chapterPauseMs: 0, title: title)
    }

    package func run(commandLine: String, exports: ExportSettings?, progress: @escaping @Sendable (Double) -> Void = { _ in }) throws -> NarrationReport {
        let clock = ContinuousClock.now
        let text = try SourceReader.read(textFile)
        let result = Splitter(settings: split).split([(textFile.path, SourceFile.inferredFormat(for: textFile), text)])
        guard !result.items.isEmpty else { throw TextError.noSpeakableText(files: [textFile.path]) }
        // The recording is read a block at a time, twice (to align, then to cut the items'
        // audio), and never held whole: a 10-hour narration at 44.1 kHz is 3 GB of samples.
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(url: audioFile)
        } catch {
            // Typed throws: `error` is an AudioError; the recording is the user's input (exit 2).
            switch error {
            case let .unreadable(_, reason), let .encodingFailed(_, reason):
                throw PipelineError.unreadableRecording(path: audioFile.path, reason: reason)
            }
        }
        if reader.exactLength && reader.promisedFrames == 0 {
            throw PipelineError.unreadableRecording(path: audioFile.path, reason: "it holds no audio frames")
        }
        var warnings: [Diagnostic] = []
        let audioHash = try ContentHash.sha256Hex(fileAt: audioFile)
        let model = RecognizerModel.standard
        try model.checkAvailable()

        let workspace = try OutputWorkspace(directory: outputDirectory)
        defer { withExtendedLifetime(workspace) {} }
        let store = workspace.store
        let manifest = workspace.manifest
        let identity = ForcedAligner.identity(model: model) + "/narration-2"
        let buildID = try manifest.beginBuild(BuildRecord(
            recipePath: textFile.path, recipeHash: ContentHash.sha256Hex(Array(text.utf8)), toolVersion: ForgeVersion.current,
            engine: "narration", engineVersion: identity, commandLine: commandLine, stages: "split,align", startedAt: BuildPipeline.timestamp(),
            settings: RecordedSettings(exports: exports ?? Self.exportSettings(title: textFile.deletingPathExtension().lastPathComponent)).json))
        do {
            _ = try manifest.synchronize(with: result)
            // All words of the book, as one text: offsets made global so interpolation spans items.
            var words: [WordToken] = []
            var ranges: [Range<Int>] = []
            var offset = 0
            for item in result.items {
                let first = words.count
                for word in item.words { words.append(WordToken(index: words.count, text: word.text, start: word.start + offset, end: word.end + offset)) }
                ranges.append(first..<words.count)
                offset += item.text.unicodeScalars.count + 1
            }
            let key = ObjectKey.digest([
                "stage": "narration-align", "audio": audioHash, "aligner": identity,
                "text": result.items.map(\.text).joined(separator: "\n"),
            ])
            let documentPath = ObjectStore.relativePath(key: key, fileExtension: "json")
            let narration: NarrationAlignment
            var aligned = false
            var resumedFromMs: Int?
            let stored = (try? store.read(relativePath: documentPath)).flatMap(AlignmentDocument.decode)?.narration
            if let stored, stored.heard.count == words.count {
                narration = stored
                // Its length and any damage are known only at its end.
                try reader.skip(.max)
            } else {
                // The recognizer's 16 kHz copy goes to a nameless scratch file in the output
                // directory (unlinked at once: nothing is left behind, even by a kill).
                let scratch = "objects/tmp/narration.\(getpid()).s16"
                let descriptor = try store.owned.createFile(scratch, readable: true)
                unlink(store.url(forRelativePath: scratch).path)
                let samples: RecognizerAudio
                do {
                    samples = try RecognizerAudio(reading: reader, into: descriptor, label: audioFile.path)
                } catch let error as AudioError {
                    guard case let .unreadable(_, reason) = error else { throw error }
                    throw PipelineError.unreadableRecording(path: audioFile.path, reason: reason)
                }
                guard reader.framesRead > 0 else { throw PipelineError.unreadableRecording(path: audioFile.path, reason: "it holds no audio frames") }
                // Windows an interrupted run of this alignment saved: it goes on after them.
                let saved = try manifest.narrationWindows(key: key)
                if NarrationAligner.canResume(from: saved, words: words.count, samples: samples.count), let last = saved.last {
                    resumedFromMs = Self.milliseconds(last.cursor, rate: PocketSphinxDecoder.sampleRate)
                }
                var windowIndex = saved.count
                narration = try NarrationAligner(aligner: ForcedAligner(model: model, language: language, fillers: false)).align(
                    words: words, samples: samples, durationMs: Self.milliseconds(reader.framesRead, rate: reader.sampleRate), resumingFrom: saved,
                    checkpoint: { window in
                        try manifest.recordNarrationWindow(key: key, index: windowIndex, window)
                        windowIndex += 1
                    }, progress: progress)
                aligned = true
            }
            let sampleRate = reader.sampleRate
            let frames = reader.framesRead
            let durationMs = Self.milliseconds(frames, rate: sampleRate)
            if reader.missingFrames > 0 {
                let total = Self.milliseconds(frames + reader.missingFrames, rate: sampleRate)
                warnings.append(.warning(
                    "\(audioFile.path): decoding stopped at \(Self.clock(durationMs)) of \(Self.clock(total)) (a damaged or cut file); "
                        + "the last \(String(format: "%.1f", Double(reader.missingFrames) / Double(sampleRate))) s were not aligned.",
                    file: audioFile.path, suggestion: "Re-export the recording and align again."))
            }
            let alignment = narration.alignment
            let documentObject = try store.store(
                key: key, fileExtension: "json", role: .alignment, mimeType: "application/json",
                data: AlignmentDocument(aligner: identity, durationMs: durationMs, narration: narration).encoded())
            try manifest.clearNarrationWindows()

            // Items of which no word was heard get no audio: the recording does not hold them.
            let included = ranges.map { range in range.contains { narration.heard[$0] } }
            let kept = ranges.indices.filter { included[$0] }
            // Cut the recording between the items it holds, halfway through the pause.
            var cuts: [Int: (from: Int, to: Int)] = [:]
            var previousCut = 0
            for (position, index) in kept.enumerated() {
                var to = frames
                if position + 1 < kept.count {
                    let previousEnd = alignment.timings[ranges[index].upperBound - 1].endMs
                    let nextStart = alignment.timings[ranges[kept[position + 1]].lowerBound].startMs
                    to = max(previousCut, min(frames, Int(Int64((previousEnd + max(previousEnd, nextStart)) / 2) * Int64(sampleRate) / 1000)))
                }
                cuts[index] = (previousCut, to)
                previousCut = to
            }
            var updates: [ItemUpdate] = []
            var unheard: [NarrationReport.UnheardWord] = []
            let voice = "narration:" + audioFile.lastPathComponent
            let pieces = try SoundFileReader(url: audioFile)
            for (index, item) in result.items.enumerated() {
                guard let cut = cuts[index] else {
                    let at = Self.clock(alignment.timings[ranges[index].lowerBound].startMs)
                    updates.append(.failed(itemID: item.id, error: "not in the recording: no word of it was heard (the text puts it at \(at)); fix the text or the recording and align again"))
                    continue
                }
                try pieces.skip(cut.from - pieces.framesRead)
                let piece = try pieces.read(upTo: max(0, cut.to - cut.from))
                let startMs = Self.milliseconds(cut.from, rate: sampleRate)
                let pieceKey = ObjectKey.digest(["stage": "narration-piece", "audio": audioHash, "from": String(cut.from), "to": String(cut.to)])
                let pieceMs = Self.milliseconds(piece.count, rate: sampleRate)
                let object = try store.store(
                    key: pieceKey, fileExtension: "flac", role: .audio, mimeType: AudioSettings.Format.flac.mimeType,
                    data: try SoundFile.encode(piece.isEmpty ? [0] : piece, sampleRate: sampleRate, format: .flac),
                    durationMs: pieceMs, sampleRate: sampleRate)
                let itemWords = Array(item.words)
                let timings = ranges[index].map { alignment.timings[$0] }
                let local = ForcedAlignment.complete(
                    words: itemWords,
                    placements: zip(timings, ranges[index]).map { timing, global in
                        WordPlacement(startMs: timing.startMs - startMs, endMs: timing.endMs - startMs, confidence: alignment.confidences[global])
                    },
                    durationMs: max(1, pieceMs))
                let confidences = ranges[index].map { alignment.confidences[$0] }
                for global in ranges[index] where !narration.heard[global] {
                    unheard.append(.init(itemID: item.id, word: words[global].text, startMs: alignment.timings[global].startMs))
                }
                updates.append(.narrated(itemID: item.id, audio: object, voice: voice))
                updates.append(.aligned(
                    itemID: item.id, alignmentKey: ObjectKey.digest(["narration": key, "item": item.id]), source: .forced,
                    timings: local.timings, confidences: confidences, object: index == kept.first ? documentObject : nil))
            }
            try manifest.apply(updates, build: buildID)
            let spans = Self.rows(narration.spans, items: result.items, ranges: ranges, words: words)
            try manifest.recordNarrationSpans(spans)
            let missingItems = result.items.count - kept.count
            let passed = missingItems == 0 && narration.unmatchedFraction <= maxUnmatched
            let exportSettings = exports ?? Self.exportSettings(title: textFile.deletingPathExtension().lastPathComponent)
            var exported: [String] = []
            if missingItems == 0 {
                try TimelineRecorder(store: ObjectStore(root: outputDirectory), manifest: manifest, settings: exportSettings)
                    .record(touched: Set(result.items.map(\.id)), cancellation: nil)
                if var exports, !exports.formats.isEmpty, passed {
                    // A narrated book's credits are the narrator's to record: none is synthesized beside them.
                    if exports.formats.contains(.acx), exports.openingCredit != nil || exports.closingCredit != nil {
                        warnings.append(.warning("the recipe's credits are not spoken for a narrated book.", suggestion: "Record them and add them to the ACX set yourself."))
                        (exports.openingCredit, exports.closingCredit) = (nil, nil)
                    }
                    exported = try Exporter(outputDirectory: outputDirectory, settings: exports).export(using: manifest).files
                }
            }
            try manifest.finishBuild(
                buildID, outcome: passed ? .succeeded : .failed, endedAt: BuildPipeline.timestamp(), total: result.items.count, synthesized: 0,
                reused: aligned ? 0 : kept.count, failed: missingItems)
            return NarrationReport(
                outputDirectory: outputDirectory.path, items: result.items.count, words: words.count, durationMs: durationMs,
                unheard: unheard, reusedAlignment: !aligned, resumedFromMs: resumedFromMs, exportedFiles: exported, elapsedSeconds: BuildPipeline.seconds(since: clock),
                warnings: warnings, spans: spans, unmatchedWords: narration.unmatchedWords, speechMs: narration.speechMs,
                unmatchedSpeechMs: narration.unmatchedSpeechMs, unmatchedFraction: narration.unmatchedFraction, maxUnmatched: maxUnmatched,
                itemsNotInRecording: missingItems, exportsSkipped: exports.map { !$0.formats.isEmpty } == true && exported.isEmpty)
        } catch {
            try? manifest.finishBuild(buildID, outcome: .failed, endedAt: BuildPipeline.timestamp(), total: result.items.count, synthesized: 0, reused: 0, failed: 0)
            throw error
        }
    }
}
