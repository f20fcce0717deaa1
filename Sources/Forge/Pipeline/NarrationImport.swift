import Foundation

/// `forge align --audio … --text …`: turns a recording of a text (a human narrator, another
/// engine) into an output directory like a build's: the text split into chapters and items,
/// each item's stretch of the recording stored as its audio object (cut halfway through the
/// pause between items, so the pieces rejoin into the original), and every word timed by
/// ``NarrationAligner``. Exports then work as for a build.
///
/// The whole alignment is cached as one object keyed on the recording's bytes, the text and the
/// aligner, so running it again aligns nothing.
public struct NarrationImport: Sendable {
    public var audioFile: URL
    public var textFile: URL
    public var outputDirectory: URL
    public var language: String
    public var split: SplitSettings

    /// Words below this confidence are reported as not heard: the aligner squeezed them to
    /// (nearly) the shortest duration its phones allow, which a spoken word does not take.
    public static let heardConfidence = 0.1

    /// Short function words ("it", "a") are often spoken in less time than the aligner's
    /// minimum, so one squeezed short word alone is not evidence; a squeezed longer word, or a
    /// run of squeezed words (a skipped phrase), is.
    static func isUnheard(_ index: Int, confidences: [Double?], words: [WordToken]) -> Bool {
        func low(_ position: Int) -> Bool {
            confidences.indices.contains(position) && (confidences[position] ?? 0) < heardConfidence
        }
        guard low(index) else { return false }
        return words[index].text.count >= 4 || low(index - 1) || low(index + 1)
    }

    public init(audioFile: URL, textFile: URL, outputDirectory: URL, language: String = "en-us", split: SplitSettings = SplitSettings()) {
        self.audioFile = audioFile.standardizedFileURL
        self.textFile = textFile.standardizedFileURL
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.language = language
        self.split = split
    }

    /// Export settings for a narration: no pauses added, since the pieces cut from the recording
    /// already hold the narrator's own.
    /// m:ss.s, for messages about the recording.
    static func clock(_ milliseconds: Int) -> String {
        String(format: "%d:%04.1f", milliseconds / 60_000, Double(milliseconds % 60_000) / 1000)
    }

    public static func exportSettings(title: String, formats: [ExportFormat] = []) -> ExportSettings {
        ExportSettings(formats: formats, sentencePauseMs: 0, paragraphPauseMs: 0, chapterPauseMs: 0, title: title)
    }

    public func run(commandLine: String, exports: ExportSettings?, progress: @escaping @Sendable (Double) -> Void = { _ in }) throws -> NarrationReport {
        let clock = ContinuousClock.now
        let text = try SourceReader.read(textFile)
        let result = Splitter(settings: split).split([(textFile.path, SourceFile.inferredFormat(for: textFile), text)])
        guard !result.items.isEmpty else { throw TextError.noSpeakableText(files: [textFile.path]) }
        let audio: DecodedAudio
        do {
            audio = try SoundFile.decode(fileAt: audioFile)
        } catch {
            // Typed throws: `error` is an AudioError; the recording is the user's input (exit 2).
            switch error {
            case let .unreadable(_, reason), let .encodingFailed(_, reason):
                throw PipelineError.unreadableRecording(path: audioFile.path, reason: reason)
            }
        }
        var warnings: [String] = []
        if audio.missingFrames > 0 {
            let total = Double(audio.samples.count + audio.missingFrames) / Double(audio.sampleRate)
            warnings.append(
                "\(audioFile.path): decoding stopped at \(Self.clock(audio.durationMs)) of \(Self.clock(Int(total * 1000))) (a damaged or cut file); "
                    + "the last \(String(format: "%.1f", Double(audio.missingFrames) / Double(audio.sampleRate))) s were not aligned. Re-export the recording and align again.")
        }
        let audioHash = try ContentHash.sha256Hex(fileAt: audioFile)
        let model = RecognizerModel.standard
        try model.checkAvailable()

        let workspace = try OutputWorkspace(directory: outputDirectory)
        defer { withExtendedLifetime(workspace) {} }
        let store = workspace.store
        let manifest = workspace.manifest
        let identity = ForcedAligner.identity(model: model) + "/narration-1"
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
            var alignment: ForcedAlignment
            var aligned = false
            if let data = try? store.read(relativePath: documentPath), let document = AlignmentDocument.decode(data), document.alignment.timings.count == words.count {
                alignment = document.alignment
            } else {
                alignment = try NarrationAligner(aligner: ForcedAligner(model: model, language: language, fillers: false)).align(words: words, audio: audio, progress: progress)
                aligned = true
            }
            let documentObject = try store.store(
                key: key, fileExtension: "json", role: .alignment, mimeType: "application/json",
                data: AlignmentDocument(aligner: identity, durationMs: audio.durationMs, alignment: alignment).encoded())

            // Cut the recording between items, halfway through the pause.
            var cuts = [0]
            for index in 1..<max(1, ranges.count) {
                let previousEnd = ranges[index - 1].last.map { alignment.timings[$0].endMs } ?? 0
                let nextStart = ranges[index].first.map { alignment.timings[$0].startMs } ?? previousEnd
                cuts.append(max(cuts.last!, (previousEnd + max(previousEnd, nextStart)) / 2 * audio.sampleRate / 1000))
            }
            cuts.append(audio.samples.count)
            var updates: [ItemUpdate] = []
            var unheard: [NarrationReport.UnheardWord] = []
            let voice = "narration:" + audioFile.lastPathComponent
            for (index, item) in result.items.enumerated() {
                let piece = Array(audio.samples[cuts[index]..<max(cuts[index], cuts[index + 1])])
                let startMs = Int(Int64(cuts[index]) * 1000 / Int64(audio.sampleRate))
                let pieceKey = ObjectKey.digest(["stage": "narration-piece", "audio": audioHash, "from": String(cuts[index]), "to": String(cuts[index + 1])])
                let durationMs = Int(Int64(piece.count) * 1000 / Int64(audio.sampleRate))
                let object = try store.store(
                    key: pieceKey, fileExtension: "flac", role: .audio, mimeType: AudioSettings.Format.flac.mimeType,
                    data: try SoundFile.encode(piece.isEmpty ? [0] : piece, sampleRate: audio.sampleRate, format: .flac),
                    durationMs: durationMs, sampleRate: audio.sampleRate)
                let itemWords = Array(item.words)
                let timings = ranges[index].map { alignment.timings[$0] }
                let local = ForcedAlignment.complete(
                    words: itemWords,
                    placements: zip(timings, ranges[index]).map { timing, global in
                        WordPlacement(startMs: timing.startMs - startMs, endMs: timing.endMs - startMs, confidence: alignment.confidences[global])
                    },
                    durationMs: max(1, durationMs))
                let confidences = ranges[index].map { alignment.confidences[$0] }
                for global in ranges[index] where Self.isUnheard(global, confidences: alignment.confidences, words: words) {
                    unheard.append(.init(itemID: item.id, word: words[global].text, startMs: alignment.timings[global].startMs))
                }
                updates.append(.narrated(itemID: item.id, audio: object, voice: voice))
                updates.append(.aligned(
                    itemID: item.id, alignmentKey: ObjectKey.digest(["narration": key, "item": item.id]), source: .forced,
                    timings: local.timings, confidences: confidences, object: index == 0 ? documentObject : nil))
            }
            try manifest.apply(updates, build: buildID)
            try TimelineRecorder(
                store: ObjectStore(root: outputDirectory), manifest: manifest,
                settings: exports ?? Self.exportSettings(title: textFile.deletingPathExtension().lastPathComponent)
            ).record(touched: Set(result.items.map(\.id)), cancellation: nil)
            var exported: [String] = []
            if let exports, !exports.formats.isEmpty {
                exported = try Exporter(outputDirectory: outputDirectory, settings: exports).export(using: manifest).files
            }
            try manifest.finishBuild(buildID, outcome: .succeeded, endedAt: BuildPipeline.timestamp(), total: result.items.count, synthesized: 0, reused: aligned ? 0 : result.items.count, failed: 0)
            return NarrationReport(
                outputDirectory: outputDirectory.path, items: result.items.count, words: words.count, durationMs: audio.durationMs,
                unheard: unheard, reusedAlignment: !aligned, exportedFiles: exported, elapsedSeconds: BuildPipeline.seconds(since: clock),
                warnings: warnings)
        } catch {
            try? manifest.finishBuild(buildID, outcome: .failed, endedAt: BuildPipeline.timestamp(), total: result.items.count, synthesized: 0, reused: 0, failed: 0)
            throw error
        }
    }
}
