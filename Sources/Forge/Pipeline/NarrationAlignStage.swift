import Foundation
import Synchronization

/// Aligns a recording to its text in windows (``NarrationAligner``), saving each window as it is
/// done so a stopped run resumes; or takes the whole alignment from the store when the same
/// recording and text were aligned before.
struct NarrationAlignStage: PipelineStage {
    let progress: @Sendable (NarrationProgress) -> Void

    func run(_ text: NarratedText, in context: NarrationContext) throws -> AlignedNarration {
        let (store, manifest, reader, audioFile) = (context.store, context.manifest, context.reader, context.audioFile)
        let key = ObjectKey.digest([
            "stage": "narration-align", "audio": context.audioHash, "aligner": context.identity, "text": text.joined,
        ])
        let documentPath = ObjectStore.relativePath(key: key, fileExtension: "json")
        let narration: NarrationAlignment
        var realigned = false
        var resumedFromMs: Int?
        let storedDocument = (try? store.read(relativePath: documentPath)).flatMap(AlignmentDocument.decode)
        var frames: Int
        var missingFrames: Int
        if let stored = storedDocument?.narration, stored.heard.count == text.words.count {
            narration = stored
            if let recording = storedDocument?.recording {
                (frames, missingFrames) = (recording.frames, recording.missingFrames)
            } else {
                // Its length and any damage are known only at its end (a document from before they were kept).
                try reader.skip(.max)
                (frames, missingFrames) = (reader.framesRead, reader.missingFrames)
            }
        } else {
            // The recognizer's 16 kHz copy, kept while the alignment is unfinished: a resumed run
            // takes it as it is.
            let copy: RecognizerCopy
            if let kept = RecognizerCopy.kept(for: context.audioHash, in: store.owned) {
                copy = kept
            } else {
                do {
                    copy = try RecognizerCopy.make(
                        from: reader, audioHash: context.audioHash, label: audioFile.path, in: store.owned
                    ) { progress(.reading($0)) }
                } catch let error as AudioError {
                    guard case .unreadable(_, let reason) = error else { throw error }
                    throw PipelineError.unreadableRecording(path: audioFile.path, reason: reason)
                }
            }
            (frames, missingFrames) = (copy.stamp.frames, copy.stamp.missingFrames)
            let samples = copy.audio
            guard frames > 0 else {
                RecognizerCopy.remove(in: store.owned)
                throw PipelineError.unreadableRecording(path: audioFile.path, reason: "it holds no audio frames")
            }
            // Windows an interrupted run of this alignment saved: it goes on after them.
            let saved = try manifest.narrationWindows(key: key)
            if NarrationAligner.canResume(from: saved, words: text.words.count, samples: samples.count),
                let last = saved.last
            {
                resumedFromMs = NarrationImport.milliseconds(last.cursor, rate: PocketSphinxDecoder.sampleRate)
            }
            // Segments save their windows from their own threads, each row numbered in turn.
            let windowIndex = Mutex(saved.count)
            // Every decoder (two per thread) loads its dictionary: the book's words alone, not
            // the 134,000 of the model's, keep the alignment's memory small. A nameless scratch
            // file too, read by pocketsphinx through the descriptor.
            let dictionary = try PronouncingDictionary(
                words: Set(text.words.map(\.text)), base: context.model.dictionary, language: context.language)
            let dictionaryScratch = "objects/tmp/narration.\(getpid()).dict"
            let dictionaryFile = try store.owned.createFile(dictionaryScratch)
            unlink(store.url(forRelativePath: dictionaryScratch).path)
            defer { close(dictionaryFile) }
            let handle = FileHandle(fileDescriptor: dictionaryFile, closeOnDealloc: false)
            try handle.write(contentsOf: Data(dictionary.text.utf8))
            var model = context.model
            model.dictionary = URL(fileURLWithPath: "/proc/self/fd/\(dictionaryFile)")
            narration = try NarrationAligner(model: model, language: context.language).align(
                words: text.words, samples: samples,
                durationMs: NarrationImport.milliseconds(frames, rate: reader.sampleRate),
                resumingFrom: saved, segments: try manifest.narrationSegments(key: key),
                segmentsFound: { try manifest.recordNarrationSegments(key: key, $0) },
                checkpoint: { window in
                    try windowIndex.withLock { index in
                        try manifest.recordNarrationWindow(key: key, index: index, window)
                        index += 1
                    }
                }, progress: { progress(.aligning($0)) })
            realigned = true
        }
        let sampleRate = reader.sampleRate
        let durationMs = NarrationImport.milliseconds(frames, rate: sampleRate)
        var warnings: [Diagnostic] = []
        if missingFrames > 0 {
            let total = NarrationImport.milliseconds(frames + missingFrames, rate: sampleRate)
            warnings.append(
                .warning(
                    "\(audioFile.path): decoding stopped at \(NarrationImport.clock(durationMs)) of \(NarrationImport.clock(total)) (a damaged or cut file); "
                        + "the last \(String(format: "%.1f", Double(missingFrames) / Double(sampleRate))) s were not aligned.",
                    file: audioFile.path, suggestion: "Re-export the recording and align again."))
        }
        let document = try store.store(
            key: key, fileExtension: "json", role: .alignment, mimeType: "application/json",
            data: AlignmentDocument(
                aligner: context.identity, durationMs: durationMs, narration: narration,
                recording: .init(frames: frames, missingFrames: missingFrames)
            ).encoded())
        try manifest.clearNarrationWindows()
        RecognizerCopy.remove(in: store.owned)
        return AlignedNarration(
            narration: narration, key: key, document: document, realigned: realigned, resumedFromMs: resumedFromMs,
            sampleRate: sampleRate,
            frames: frames, warnings: warnings)
    }
}
