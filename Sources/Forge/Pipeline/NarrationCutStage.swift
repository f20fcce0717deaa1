/// Cuts the recording into the items it holds — halfway through the pause between two items, so
/// the pieces rejoin into the original — stores each piece as its item's audio with its words'
/// timings, and records the items the recording does not hold as failed — or, with
/// `keepsUnnarrated` (a sync: front matter, headings a narrator does not read), as done with no
/// audio (an empty piece where the recording passes them), which exports leave out of the overlays.
struct NarrationCutStage: PipelineStage {
    var keepsUnnarrated = false

    func run(_ input: (text: NarratedText, aligned: AlignedNarration), in context: NarrationContext) throws
        -> NarrationPieces
    {
        let (text, aligned) = input
        let (ranges, narration) = (text.ranges, aligned.narration)
        let alignment = narration.alignment
        let (frames, sampleRate) = (aligned.frames, aligned.sampleRate)
        // Items of which no word was heard get no audio: the recording does not hold them.
        let kept = ranges.indices.filter { index in ranges[index].contains { narration.heard[$0] } }
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
        var updates: [ItemUpdate] = []
        var unheard: [NarrationReport.UnheardWord] = []
        let voice = "narration:" + context.audioFile.lastPathComponent
        let pieces = try SoundFile.Reader(url: context.audioFile)
        for (index, item) in text.split.items.enumerated() {
            guard let cut = cuts[index] else {
                let at = NarrationImport.clock(alignment.timings[ranges[index].lowerBound].startMs)
                updates.append(
                    .failed(
                        itemID: item.id,
                        error:
                            "not in the recording: no word of it was heard (the text puts it at \(at)); fix the text or the recording and align again"
                    ))
                continue
            }
            try pieces.skip(cut.from - pieces.framesRead)
            let piece = try pieces.read(upTo: max(0, cut.to - cut.from))
            let startMs = NarrationImport.milliseconds(cut.from, rate: sampleRate)
            let pieceKey = ObjectKey.digest([
                "stage": "narration-piece", "audio": context.audioHash, "from": String(cut.from), "to": String(cut.to),
            ])
            let pieceMs = NarrationImport.milliseconds(piece.count, rate: sampleRate)
            let object = try context.store.store(
                key: pieceKey, fileExtension: "flac", role: .audio, mimeType: AudioSettings.Format.flac.mimeType,
                data: try SoundFile.encode(piece.isEmpty ? [0] : piece, sampleRate: sampleRate, format: .flac),
                durationMs: pieceMs, sampleRate: sampleRate)
            let narrated = cut.to > cut.from
            let placements =
                !narrated
                ? [WordPlacement?](repeating: nil, count: ranges[index].count)
                : ranges[index].map { global in
                    WordPlacement(
                        startMs: alignment.timings[global].startMs - startMs,
                        endMs: alignment.timings[global].endMs - startMs,
                        confidence: alignment.confidences[global])
                }
            let local = ForcedAlignment.complete(
                words: Array(item.words), placements: placements, durationMs: max(1, pieceMs))
            for global in ranges[index] where !narration.heard[global] && narrated {
                unheard.append(
                    .init(itemID: item.id, word: text.words[global].text, startMs: alignment.timings[global].startMs))
            }
            updates.append(.narrated(itemID: item.id, audio: object, voice: voice))
            updates.append(
                .aligned(
                    itemID: item.id, alignmentKey: ObjectKey.digest(["narration": aligned.key, "item": item.id]),
                    source: .forced,
                    timings: local.timings, confidences: ranges[index].map { alignment.confidences[$0] },
                    object: index == kept.first ? aligned.document : nil))
        }
        try context.manifest.apply(updates, build: context.buildID)
        return NarrationPieces(keptItems: kept.count, unheard: unheard)
    }
}
