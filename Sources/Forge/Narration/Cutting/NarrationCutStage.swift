/// Cuts the recording into the items it holds — halfway through the pause between two items, so
/// the pieces rejoin into the original — stores each piece as its item's audio with its words'
/// timings, and records the items the recording does not hold as failed — or, with
/// `keepsUnnarrated` (a sync: front matter, headings a narrator does not read), as done with no
/// audio (an empty piece where the recording passes them), which exports leave out of the overlays.
struct NarrationCutStage: PipelineStage {
    var keepsUnnarrated = false
    /// Told the share of the items cut, each hundredth.
    var progress: @Sendable (Double) -> Void = { _ in }

    func run(_ input: (text: NarratedText, aligned: AlignedNarration), in context: NarrationContext) throws
        -> NarrationPieces
    {
        let (text, aligned) = input
        let (ranges, narration) = (text.ranges, aligned.narration)
        // Items of which no word was heard get no audio: the recording does not hold them.
        let kept = ranges.indices.filter { index in ranges[index].contains { narration.heard[$0] } }
        let cuts = cuts(kept: kept, ranges: ranges, aligned: aligned)
        let objects = try pieces(cuts, items: text.split.items.count, aligned: aligned, in: context)
        var updates: [ItemUpdate] = []
        var unheard: [NarrationReport.UnheardWord] = []
        let voice = "narration:" + context.audioFile.lastPathComponent
        for (index, item) in text.split.items.enumerated() {
            guard let cut = cuts[index], let object = objects[index] else {
                let at = NarrationImport.clock(narration.alignment.timings[ranges[index].lowerBound].startMs)
                updates.append(
                    .failed(
                        itemID: item.id,
                        error:
                            "not in the recording: no word of it was heard (the text puts it at \(at)); fix the text or the recording and align again"
                    ))
                continue
            }
            let narrated = cut.to > cut.from
            for global in ranges[index] where !narration.heard[global] && narrated {
                unheard.append(
                    .init(
                        itemID: item.id, word: text.words[global].text,
                        startMs: narration.alignment.timings[global].startMs))
            }
            updates.append(.narrated(itemID: item.id, audio: object, voice: voice))
            updates.append(
                .aligned(
                    itemID: item.id, alignmentKey: ObjectKey.digest(["narration": aligned.key, "item": item.id]),
                    source: .forced,
                    timings: timings(of: item, words: ranges[index], cut: cut, piece: object, aligned: aligned),
                    confidences: ranges[index].map { narration.alignment.confidences[$0] },
                    object: index == kept.first ? aligned.document : nil))
        }
        try context.manifest.apply(updates, build: context.buildID)
        return NarrationPieces(keptItems: kept.count, unheard: unheard)
    }

    /// Each kept item's piece of the recording, in frames: from the last cut to halfway through
    /// the pause after it (the last to the recording's end); with ``keepsUnnarrated``, the other
    /// items an empty piece where the recording passes them.
    private func cuts(kept: [Int], ranges: [Range<Int>], aligned: AlignedNarration) -> [Int: (from: Int, to: Int)] {
        let alignment = aligned.narration.alignment
        let (frames, sampleRate) = (aligned.frames, aligned.sampleRate)
        var cuts: [Int: (from: Int, to: Int)] = [:]
        var previousCut = 0
        for (position, index) in kept.enumerated() {
            var to = frames
            if position + 1 < kept.count {
                let previousEnd = alignment.timings[ranges[index].upperBound - 1].endMs
                let nextStart = alignment.timings[ranges[kept[position + 1]].lowerBound].startMs
                to = max(
                    previousCut,
                    min(frames, Int(Int64((previousEnd + max(previousEnd, nextStart)) / 2) * Int64(sampleRate) / 1000)))
            }
            cuts[index] = (previousCut, to)
            previousCut = to
        }
        if keepsUnnarrated {
            var at = 0
            for index in ranges.indices {
                if let cut = cuts[index] { at = cut.to } else { cuts[index] = (at, at) }
            }
        }
        return cuts
    }

    /// The stored piece of each item with a cut: taken as it is when a run before stored it (a
    /// long recording's pieces are minutes of decoding and encoding), else read from the
    /// recording and encoded.
    private func pieces(
        _ cuts: [Int: (from: Int, to: Int)], items: Int, aligned: AlignedNarration, in context: NarrationContext
    ) throws -> [Int: StoredObject] {
        func pieceKey(_ cut: (from: Int, to: Int)) -> String {
            ObjectKey.digest([
                "stage": "narration-piece", "audio": context.audioHash, "from": String(cut.from), "to": String(cut.to),
            ])
        }
        let keys = (0..<items).map { cuts[$0].map(pieceKey) }
        // Items the recording passes without a word of theirs share one empty piece.
        let stored = try context.manifest.objects(withKeys: Array(Set(keys.compactMap { $0 })))
            .filter { context.store.contains(relativePath: $0.value.path) }
        var objects: [Int: StoredObject] = [:]
        for (index, key) in keys.enumerated() { if let key, let object = stored[key] { objects[index] = object } }
        let writer = NarrationPieceWriter(store: context.store, sampleRate: aligned.sampleRate)
        defer { writer.close() }
        let pieces = try SoundFile.Reader(url: context.audioFile)
        var reported = 0
        for index in 0..<items {
            if let cut = cuts[index], let key = keys[index], objects[index] == nil {
                try pieces.skip(cut.from - pieces.framesRead)
                try writer.add(.init(index: index, key: key, samples: try pieces.read(upTo: max(0, cut.to - cut.from))))
            }
            let hundredths = (index + 1) * 100 / items
            if hundredths > reported {
                reported = hundredths
                progress(Double(hundredths) / 100)
            }
        }
        objects.merge(try writer.finish()) { kept, _ in kept }
        return objects
    }

    /// An item's word timings in its piece (every word's, an unnarrated item's interpolated).
    private func timings(
        of item: SpeakableItem, words: Range<Int>, cut: (from: Int, to: Int), piece: StoredObject,
        aligned: AlignedNarration
    ) -> [WordTiming] {
        let alignment = aligned.narration.alignment
        let startMs = NarrationImport.milliseconds(cut.from, rate: aligned.sampleRate)
        let pieceMs = piece.durationMs ?? NarrationImport.milliseconds(cut.to - cut.from, rate: aligned.sampleRate)
        let placements =
            cut.to <= cut.from
            ? [WordPlacement?](repeating: nil, count: words.count)
            : words.map { global in
                WordPlacement(
                    startMs: alignment.timings[global].startMs - startMs,
                    endMs: alignment.timings[global].endMs - startMs,
                    confidence: alignment.confidences[global])
            }
        return ForcedAlignment.complete(words: Array(item.words), placements: placements, durationMs: max(1, pieceMs))
            .timings
    }
}
