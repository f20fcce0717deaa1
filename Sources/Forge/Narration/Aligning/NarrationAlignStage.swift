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
        var heardShare: Double?
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
        if let share = fresh?.heardShare, share < WarpedNarrationAligner.wellHeardShare {
            warnings.append(
                .warning(
                    "\(audioFile.path): the acoustic model heard only \(Int(share * 100))% of the words it checked at the recording's edges and probes: it hears this narrator poorly. "
                        + "Where a probe heard nothing, the words are placed by Forge's own reading alone, unchecked, and words reported not in the recording may well be in it.",
                    file: audioFile.path,
                    suggestion:
                        "Listen to the spans reported before trusting them; `--aligner windows` asks the model everywhere (far slower)."
                ))
        }
        let document = try store.store(
            key: key, fileExtension: "json", role: .alignment, mimeType: "application/json",
            data: AlignmentDocument(
                aligner: context.identity, durationMs: durationMs, narration: narration,
                recording: .init(frames: frames, missingFrames: missingFrames)
            ).encoded())
        // The document's buffer, tens of megabytes for a long book, is freed now.
        MemoryTrim.release()
        try context.manifest.clearNarrationWindows()
        RecognizerCopy.remove(in: store.owned)
        return AlignedNarration(
            narration: narration, key: key, document: document, realigned: fresh != nil,
            resumedFromMs: fresh?.resumedFromMs, examinedMs: fresh?.examinedMs, sampleRate: sampleRate,
            frames: frames, warnings: warnings)
    }

    /// Aligns the recording anew, from the recognizer's 16 kHz copy (made now, or kept by a stopped run).
    private func align(_ text: NarratedText, key: String, in context: NarrationContext) throws -> Fresh {
        let rate = PocketSphinxDecoder.sampleRate
        switch context.method {
        case .warp:
            let first = try firstPass(text, in: context)
            let durationMs = try checkedDuration(first.copy, in: context)
            let outcome = try withDictionary(for: text, in: context) { model in
                try warped(text, key: key, firstPass: first, durationMs: durationMs, model: model, in: context)
            }
            return Fresh(
                narration: outcome.narration, frames: first.copy.stamp.frames,
                missingFrames: first.copy.stamp.missingFrames,
                resumedFromMs: outcome.resumedAt.map { NarrationImport.milliseconds($0, rate: rate) },
                examinedMs: NarrationImport.milliseconds(outcome.examinedSamples, rate: rate),
                heardShare: outcome.heardShare)
        case .windows:
            let copy = try recognizerCopy(in: context)
            let durationMs = try checkedDuration(copy, in: context)
            let (narration, resumedFromMs) = try withDictionary(for: text, in: context) { model in
                try windows(text, key: key, samples: copy.audio, durationMs: durationMs, model: model, in: context)
            }
            return Fresh(
                narration: narration, frames: copy.stamp.frames, missingFrames: copy.stamp.missingFrames,
                resumedFromMs: resumedFromMs)
        }
    }

    /// The recording's length, when it holds any audio.
    private func checkedDuration(_ copy: RecognizerCopy, in context: NarrationContext) throws -> Int {
        guard copy.stamp.frames > 0 else {
            RecognizerCopy.remove(in: context.store.owned)
            throw NarrationError.unreadableRecording(path: context.audioFile.path, reason: "it holds no audio frames")
        }
        return NarrationImport.milliseconds(copy.stamp.frames, rate: context.reader.sampleRate)
    }

    /// Runs `body` with the recognizer's model given a dictionary of the book's words alone: every
    /// decoder loads its dictionary, and not the 134,000 words of the model's keeps the
    /// alignment's memory small. A nameless scratch file, read by pocketsphinx through the descriptor.
    private func withDictionary<Result>(
        for text: NarratedText, in context: NarrationContext, _ body: (RecognizerModel) throws -> Result
    ) throws -> Result {
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
        return try body(model)
    }

    /// The recognizer's 16 kHz copy, kept while the alignment is unfinished: a resumed run takes it
    /// as it is. A copy made now hands each block to `observe` as it is written.
    private func recognizerCopy(
        in context: NarrationContext, observe: ([Int16]) throws -> Void = { _ in }, copied: (Double) -> Void = { _ in }
    ) throws -> RecognizerCopy {
        if let kept = RecognizerCopy.kept(for: context.audioHash, in: context.store.owned) { return kept }
        do {
            return try RecognizerCopy.make(
                from: context.reader, audioHash: context.audioHash, label: context.audioFile.path,
                in: context.store.owned, observe: observe
            ) {
                progress(.reading($0))
                copied($0)
            }
        } catch let error as AudioError {
            guard case .unreadable(_, let reason) = error else { throw error }
            throw NarrationError.unreadableRecording(path: context.audioFile.path, reason: reason)
        }
    }

    /// What the warp needs, made side by side (each is most of a core): Forge's own reading of the
    /// text on one thread; on the other the recognizer's copy of the recording and, as it is
    /// written, the recording's frames (from a kept copy, the frames alone).
    private struct FirstPass {
        var copy: RecognizerCopy
        var reading: BookReading
        var frames: FrameFile
        var sound: FrameFlags
    }

    private func firstPass(_ text: NarratedText, in context: NarrationContext) throws -> FirstPass {
        let clock = ContinuousClock.now
        let scratch = context.store.url(forRelativePath: "objects/tmp")
        let texts = text.split.items.map(\.text)
        let voice = VoiceSettings(id: context.language)
        // The first pass's share of the alignment's progress: the slower of its two sides, each hundredth.
        let share = Mutex((reading: 0.0, recording: 0.0, reported: 0))
        let progress = progress
        let firstPass: @Sendable (_ reading: Double?, _ recording: Double?) -> Void = { reading, recording in
            let hundredths: Int? = share.withLock { share in
                if let reading { share.reading = reading }
                if let recording { share.recording = recording }
                let done = Int(100 * min(share.reading, share.recording))
                guard done > share.reported else { return nil }
                share.reported = done
                return done
            }
            if let hundredths {
                progress(.aligning(WarpedNarrationAligner.firstPassShare * 0.9 * Double(hundredths) / 100))
            }
        }
        // The reading on a thread of its own; the recording (the context is this thread's) here.
        let stop = CancellationFlag()
        let reading = Mutex<Result<BookReading, any Error>?>(nil)
        let readingDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result {
                try BookReading.make(texts: texts, voice: voice, directory: scratch, stop: stop) { firstPass($0, nil) }
            }
            reading.withLock { $0 = result }
            readingDone.signal()
        }
        let recording = Result { () throws -> (RecognizerCopy, (frames: FrameFile, sound: FrameFlags)) in
            let builder = try FrameFile.RecordingBuilder(directory: scratch)
            let copy = try recognizerCopy(in: context, observe: { try builder.append($0) }) {
                firstPass(nil, 0.99 * $0)
            }
            // A kept copy: its frames are read from it.
            let frames =
                builder.isEmpty && copy.audio.count > 0
                ? try FrameFile.reading(samples: copy.audio, directory: scratch) { firstPass(nil, $0) }
                : try builder.finish()
            firstPass(nil, 1)
            return (copy, frames)
        }
        if case .failure = recording { stop.cancel() }
        readingDone.wait()
        // Both sides' blocks were freed into their threads' arenas: hand them back before the warp.
        MemoryTrim.release()
        ForgeLog.debug("Forge's reading and the recording's frames made in \(clock.duration(to: .now))")
        let (copy, frames) = try recording.get()
        return FirstPass(
            copy: copy, reading: try reading.withLock { $0! }.get(), frames: frames.frames, sound: frames.sound)
    }

    /// Forge's own reading of the text, warped onto the recording; the model examines stretches,
    /// each saved as a window as it is done.
    private func warped(
        _ text: NarratedText, key: String, firstPass first: FirstPass, durationMs: Int, model: RecognizerModel,
        in context: NarrationContext
    ) throws -> WarpedNarrationAligner.Outcome {
        let manifest = context.manifest
        let saved = try manifest.narrationWindows(key: key)
        let windowIndex = Mutex(saved.count)
        let progress = progress
        return try WarpedNarrationAligner(model: model, language: context.language).align(
            words: text.words, reading: first.reading, recording: first.frames, sound: first.sound,
            samples: first.copy.audio, durationMs: durationMs, saved: saved,
            checkpoint: { examination in
                try windowIndex.withLock { index in
                    try manifest.recordNarrationWindow(key: key, index: index, examination)
                    index += 1
                }
            },
            warping: { progress(.aligning(WarpedNarrationAligner.firstPassShare * (0.9 + 0.1 * $0))) },
            progress: {
                progress(
                    .aligning(WarpedNarrationAligner.firstPassShare + (1 - WarpedNarrationAligner.firstPassShare) * $0))
            })
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
