import Foundation
import Synchronization

/// Aligns a recording to its text — by Forge's own reading first (``WarpedNarrationAligner``),
/// or by the acoustic model throughout (``NarrationAligner``, saving each window as it is done so
/// a stopped run resumes) — or takes the whole alignment from the store when the same recording
/// and text were aligned before.
struct NarrationAlignStage: PipelineStage {
    let progress: @Sendable (NarrationProgress) -> Void

    /// An alignment made by this run.
    private struct Fresh {
        var narration: NarrationAlignment
        var frames: Int
        var missingFrames: Int
        var resumedFromMs: Int?
        var examinedMs: Int?
    }

    func run(_ text: NarratedText, in context: NarrationContext) throws -> AlignedNarration {
        let (store, reader, audioFile) = (context.store, context.reader, context.audioFile)
        let key = ObjectKey.digest([
            "stage": "narration-align", "audio": context.audioHash, "aligner": context.identity, "text": text.joined,
        ])
        let documentPath = ObjectStore.relativePath(key: key, fileExtension: "json")
        let storedDocument = (try? store.read(relativePath: documentPath)).flatMap(AlignmentDocument.decode)
        let fresh: Fresh?
        let narration: NarrationAlignment
        var (frames, missingFrames): (Int, Int)
        if let stored = storedDocument?.narration, stored.heard.count == text.words.count {
            fresh = nil
            narration = stored
            if let recording = storedDocument?.recording {
                (frames, missingFrames) = (recording.frames, recording.missingFrames)
            } else {
                // Its length and any damage are known only at its end (a document from before they were kept).
                try reader.skip(.max)
                (frames, missingFrames) = (reader.framesRead, reader.missingFrames)
            }
        } else {
            let made = try align(text, key: key, in: context)
            (fresh, narration, frames, missingFrames) = (made, made.narration, made.frames, made.missingFrames)
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
        try context.manifest.clearNarrationWindows()
        RecognizerCopy.remove(in: store.owned)
        return AlignedNarration(
            narration: narration, key: key, document: document, realigned: fresh != nil,
            resumedFromMs: fresh?.resumedFromMs, examinedMs: fresh?.examinedMs, sampleRate: sampleRate,
            frames: frames, warnings: warnings)
    }

    /// Aligns the recording anew, from the recognizer's 16 kHz copy (made now, or kept by a stopped run).
    private func align(_ text: NarratedText, key: String, in context: NarrationContext) throws -> Fresh {
        let copy = try recognizerCopy(in: context)
        let (frames, missingFrames) = (copy.stamp.frames, copy.stamp.missingFrames)
        guard frames > 0 else {
            RecognizerCopy.remove(in: context.store.owned)
            throw PipelineError.unreadableRecording(path: context.audioFile.path, reason: "it holds no audio frames")
        }
        let durationMs = NarrationImport.milliseconds(frames, rate: context.reader.sampleRate)
        // Every decoder loads its dictionary: the book's words alone, not the 134,000 of the
        // model's, keep the alignment's memory small. A nameless scratch file, read by
        // pocketsphinx through the descriptor.
        let dictionary = try PronouncingDictionary(
            words: Set(text.words.map(\.text)), base: context.model.dictionary, language: context.language)
        let dictionaryScratch = "objects/tmp/narration.\(getpid()).dict"
        let dictionaryFile = try context.store.owned.createFile(dictionaryScratch)
        unlink(context.store.url(forRelativePath: dictionaryScratch).path)
        defer { close(dictionaryFile) }
        try FileHandle(fileDescriptor: dictionaryFile, closeOnDealloc: false).write(
            contentsOf: Data(dictionary.text.utf8))
        var model = context.model
        model.dictionary = URL(fileURLWithPath: "/proc/self/fd/\(dictionaryFile)")
        switch context.method {
        case .warp:
            let outcome = try warped(
                text, key: key, samples: copy.audio, durationMs: durationMs, model: model, in: context)
            let rate = PocketSphinxDecoder.sampleRate
            return Fresh(
                narration: outcome.narration, frames: frames, missingFrames: missingFrames,
                resumedFromMs: outcome.resumedAt.map { NarrationImport.milliseconds($0, rate: rate) },
                examinedMs: NarrationImport.milliseconds(outcome.examinedSamples, rate: rate))
        case .windows:
            let (narration, resumedFromMs) = try windows(
                text, key: key, samples: copy.audio, durationMs: durationMs, model: model, in: context)
            return Fresh(
                narration: narration, frames: frames, missingFrames: missingFrames, resumedFromMs: resumedFromMs)
        }
    }

    /// The recognizer's 16 kHz copy, kept while the alignment is unfinished: a resumed run takes it as it is.
    private func recognizerCopy(in context: NarrationContext) throws -> RecognizerCopy {
        if let kept = RecognizerCopy.kept(for: context.audioHash, in: context.store.owned) { return kept }
        do {
            return try RecognizerCopy.make(
                from: context.reader, audioHash: context.audioHash, label: context.audioFile.path,
                in: context.store.owned
            ) { progress(.reading($0)) }
        } catch let error as AudioError {
            guard case .unreadable(_, let reason) = error else { throw error }
            throw PipelineError.unreadableRecording(path: context.audioFile.path, reason: reason)
        }
    }

    /// Forge's own reading of the text, warped onto the recording; the model examines stretches.
    /// The reading and the recording's frames are made side by side (each is most of a core).
    private func warped(
        _ text: NarratedText, key: String, samples: RecognizerAudio, durationMs: Int, model: RecognizerModel,
        in context: NarrationContext
    ) throws -> WarpedNarrationAligner.Outcome {
        let scratch = context.store.url(forRelativePath: "objects/tmp")
        let texts = text.split.items.map(\.text)
        let voice = VoiceSettings(id: context.language)
        let share = Mutex((reading: 0.0, recording: 0.0))
        let progress = progress
        let firstPass: @Sendable (_ reading: Double?, _ recording: Double?) -> Void = { reading, recording in
            let done = share.withLock { share in
                if let reading { share.reading = reading }
                if let recording { share.recording = recording }
                return min(share.reading, share.recording)
            }
            progress(.aligning(WarpedNarrationAligner.firstPassShare * 0.9 * done))
        }
        let clock = ContinuousClock.now
        let made = Mutex<(BookReading?, (frames: FrameFile, sound: FrameFlags)?, (any Error)?)>((nil, nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            do {
                if side == 0 {
                    let reading = try BookReading.make(texts: texts, voice: voice, directory: scratch) {
                        firstPass($0, nil)
                    }
                    made.withLock { $0.0 = reading }
                } else {
                    let recording = try FrameFile.reading(samples: samples, directory: scratch) { firstPass(nil, $0) }
                    made.withLock { $0.1 = recording }
                }
            } catch {
                made.withLock { $0.2 = error }
            }
        }
        ForgeLog.debug("Forge's reading and the recording's frames made in \(clock.duration(to: .now))")
        let (reading, recording, failure) = made.withLock { $0 }
        if let failure { throw failure }
        guard let reading, let recording else {
            throw PipelineError.unreadableRecording(
                path: context.audioFile.path, reason: "its frames could not be made")
        }
        let manifest = context.manifest
        let saved = try manifest.narrationWindows(key: key)
        let windowIndex = Mutex(saved.count)
        return try WarpedNarrationAligner(model: model, language: context.language).align(
            words: text.words, reading: reading, recording: recording.frames, sound: recording.sound,
            samples: samples, durationMs: durationMs, saved: saved,
            checkpoint: { examination in
                try windowIndex.withLock { index in
                    try manifest.recordNarrationWindow(key: key, index: index, examination)
                    index += 1
                }
            }
        ) {
            progress(
                .aligning(WarpedNarrationAligner.firstPassShare + (1 - WarpedNarrationAligner.firstPassShare) * $0))
        }
    }

    /// The acoustic model throughout, window by window, each window saved as it is done: an
    /// interrupted run of this alignment goes on after the windows it saved.
    private func windows(
        _ text: NarratedText, key: String, samples: RecognizerAudio, durationMs: Int, model: RecognizerModel,
        in context: NarrationContext
    ) throws -> (NarrationAlignment, resumedFromMs: Int?) {
        let manifest = context.manifest
        let saved = try manifest.narrationWindows(key: key)
        var resumedFromMs: Int?
        if NarrationAligner.canResume(from: saved, words: text.words.count, samples: samples.count),
            let last = saved.last
        {
            resumedFromMs = NarrationImport.milliseconds(last.cursor, rate: PocketSphinxDecoder.sampleRate)
        }
        // Segments save their windows from their own threads, each row numbered in turn.
        let windowIndex = Mutex(saved.count)
        let progress = progress
        let narration = try NarrationAligner(model: model, language: context.language).align(
            words: text.words, samples: samples, durationMs: durationMs,
            resumingFrom: saved, segments: try manifest.narrationSegments(key: key),
            segmentsFound: { try manifest.recordNarrationSegments(key: key, $0) },
            checkpoint: { window in
                try windowIndex.withLock { index in
                    try manifest.recordNarrationWindow(key: key, index: index, window)
                    index += 1
                }
            }, progress: { progress(.aligning($0)) })
        return (narration, resumedFromMs)
    }
}
