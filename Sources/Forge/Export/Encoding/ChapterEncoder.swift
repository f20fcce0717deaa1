import Foundation
import Synchronization

/// Every chapter of a book encoded to AAC once, a chapter per core, and kept in the store as an
/// ``StoredObject/Role/encoded`` object keyed by what it was made from. The M4B joins them and the
/// EPUB carries them, so neither encodes, and after an edit only the chapters whose audio changed
/// are encoded again. A long chapter is encoded in pieces (``ChapterTimeline/pieces(limitMs:)``),
/// joined as chapters are: the encoder's units are pieces, most of them whole chapters.
///
/// AAC frames overlap their neighbours by half a window, so chapters encoded apart do not simply
/// join: each chapter is encoded with its neighbours' edges around it (the previous chapter's last
/// and the next chapter's first 2,048 samples) and only the frames of its own samples are kept, with
/// the frame before them. A frame encoded with its true surroundings joins the next chapter's first
/// frame as if the book had been encoded in one stream: 300 s of speech cut into five pieces decodes
/// with the same SNR as one encode (31.4 dB), no lag, no click at the joins. Chapters last whole
/// frames (``ChapterTimeline/wholeFrames(_:)``), so the joins fall on frame edges and chapter marks
/// fall exactly on the chapters' first samples.
struct ChapterEncoder: Sendable {
    /// Samples of each neighbour encoded around a chapter (whole frames).
    static let contextSamples = 2 * ChapterTimeline.frameSamples
    /// How chapters are encoded and cut: changing it makes them again.
    static let method = "aac-chapter-1"
    static let fileExtension = "aac"
    static let mimeType = "audio/aac"

    /// What is encoded, in order: each chapter, or each piece of a long one.
    let pieces: [ChapterTimeline]
    /// The chapter (index of the timelines given) of each piece, its place among the chapter's
    /// pieces, and its first sample in the chapter.
    let chapterOfPiece: [(chapter: Int, piece: Int, of: Int, start: Int)]
    let settings: ExportSettings
    let store: ObjectStore
    let manifest: Manifest

    init(
        chapters: [ChapterTimeline], settings: ExportSettings, store: ObjectStore, manifest: Manifest,
        pieceLimitMs: Int = ChapterTimeline.pieceLimitMs
    ) {
        var pieces: [ChapterTimeline] = []
        var chapterOfPiece: [(chapter: Int, piece: Int, of: Int, start: Int)] = []
        for (index, chapter) in chapters.enumerated() {
            let parts = chapter.pieces(limitMs: pieceLimitMs)
            var start = 0
            for (place, part) in parts.enumerated() {
                chapterOfPiece.append((index, place, parts.count, start))
                start += part.totalSamples
            }
            pieces += parts
        }
        self.pieces = pieces
        self.chapterOfPiece = chapterOfPiece
        self.settings = settings
        self.store = store
        self.manifest = manifest
    }

    /// Piece `index` as a warning names it: "chapter 3", or "chapter 3 (piece 2 of 8)".
    func label(_ index: Int) -> String {
        let (place, count) = (chapterOfPiece[index].piece, chapterOfPiece[index].of)
        let chapter = "chapter \(pieces[index].chapter.ordinal)"
        return count == 1 ? chapter : "\(chapter) (piece \(place + 1) of \(count))"
    }

    /// `objects` (one per piece, in order) gathered by chapter.
    func byChapter<Object>(_ objects: [Object]) -> [[Object]] {
        var chapters: [[Object]] = []
        for (object, owner) in zip(objects, chapterOfPiece) {
            if owner.piece == 0 { chapters.append([]) }
            chapters[chapters.count - 1].append(object)
        }
        return chapters
    }

    /// The one sample rate of every chapter, or nil: chapters at different rates (voices of engines
    /// with other rates) are resampled to one stream and cannot be encoded apart.
    static func commonRate(_ timelines: [ChapterTimeline]) -> Int? {
        guard let rate = timelines.first?.sampleRate, timelines.allSatisfy({ $0.sampleRate == rate }) else {
            return nil
        }
        return rate
    }

    /// Every piece's encoding in order (found in the store, or encoded on up to `jobs` threads),
    /// and how many were encoded. `progress` is told the phase's progress (`encode`), inside a long
    /// piece too. With `only`, the pieces (indices) to encode; the others are not touched.
    func encodeAll(jobs: Int, cancellation: CancellationFlag?, progress: ExportProgress.Sink?, only: [Int]? = nil)
        throws -> (objects: [StoredObject], made: Int)
    {
        let identity = try Self.identity(settings)
        let chosen = only ?? Array(pieces.indices)
        let found = Mutex<(objects: [Int: StoredObject], made: Int)>(([:], 0))
        let meter = PhaseMeter(phase: "encode", lengths: chosen.map { pieces[$0].durationMs }, sink: progress)
        let encoder = self
        try BlockingThreads.forEachIndex(chosen.count, threads: jobs, cancellation: cancellation) { position in
            let index = chosen[position]
            let (object, made) = try encoder.encoded(
                index, identity: identity, cancellation: cancellation, meter: meter, position: position)
            found.withLock {
                $0.objects[index] = object
                if made { $0.made += 1 }
            }
            // The piece's buffers, freed into this thread's arena, are handed back (see MemoryTrim).
            MemoryTrim.release()
            meter.finish(position)
        }
        if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
        return try found.withLock { found in
            let objects = try chosen.map { index in
                guard let object = found.objects[index] else { throw ExportError.cancelled(written: 0) }
                return object
            }
            return (objects, found.made)
        }
    }

    /// Removes the encoded chapters of the store that none of `kept` (keys) is: an export that made
    /// new ones leaves no old ones behind.
    func removeOthers(than kept: Set<String>) throws {
        let stale = try manifest.encodedObjects().filter { !kept.contains($0.key) }
        guard !stale.isEmpty else { return }
        try manifest.forgetEncoded(stale.map(\.key))
        for object in stale where store.contains(relativePath: object.path) {
            unlink(store.url(forRelativePath: object.path).path)
        }
    }

    /// What every encoding depends on besides its chapter: the method, ffmpeg, the coder's settings.
    static func identity(_ settings: ExportSettings) throws -> String {
        "\(method)|\(try FFmpegEncoder.identity())|\(AudiobookExport.aacCoder)|\(AudiobookExport.aacBitRate)|\(Mastering.identity(settings.mastering))"
    }

    /// The key of piece `index`'s encoding — what it is made from: the method, ffmpeg and the
    /// coder's settings (`identity`), the piece's items and places, and its neighbours' edges,
    /// named by the items and places they are rendered from, so a key is known without reading any
    /// audio (a build whose items are in a remote cache only finds the encoding by it).
    func encodingKey(_ index: Int, identity: String) throws -> String {
        let timeline = pieces[index]
        var description = "\(Self.method)-edges-by-items|\(identity)|\(timeline.sampleRate)|\(timeline.totalSamples)"
        for item in timeline.items { description += "|\(item.audioPath)@\(item.startSample)+\(item.sampleCount)" }
        let (before, after) = edgeRanges(of: index)
        for (name, edge) in [("before", before), ("after", after)] {
            guard let (neighbour, range) = edge else {
                description += "|\(name):-"
                continue
            }
            // Places within the edge: an edit earlier in the neighbour that leaves its edge's samples alone keeps the key.
            let timeline = pieces[neighbour]
            description += "|\(name):\(range.count)"
            for item in timeline.items(overlappingSamples: range) {
                description += ",\(item.audioPath)@\(item.startSample - range.lowerBound)+\(item.sampleCount)"
            }
        }
        return ContentHash.sha256Hex(description)
    }

    /// The stored encoding of `key`, if the store and the manifest have it.
    func stored(_ key: String) throws -> StoredObject? {
        let path = ObjectStore.relativePath(key: key, fileExtension: Self.fileExtension)
        guard let known = try manifest.objects(withKeys: [key])[key], known.role == .encoded,
            store.contains(relativePath: path)
        else { return nil }
        return known
    }

    /// Whether `bytes` can be piece `index`'s encoding: whole ADTS frames, one more than the
    /// piece's frames (the one before them primes a decoder).
    func fits(_ bytes: [UInt8], piece index: Int) -> Bool {
        ADTSFrames.frames(bytes)?.count == pieces[index].totalSamples / ChapterTimeline.frameSamples + 1
    }

    /// The piece's encoding, from the store when it holds it (`made` false), else encoded now and
    /// stored; `meter` counts its audio as the chapter at `position` of its phase.
    func encoded(
        _ index: Int, identity: String, cancellation: CancellationFlag?, meter: PhaseMeter? = nil, position: Int? = nil
    ) throws -> (object: StoredObject, made: Bool) {
        let timeline = pieces[index]
        let key = try encodingKey(index, identity: identity)
        if let known = try stored(key) { return (known, false) }
        let (before, after) = try edges(of: index)
        let frames = try encode(timeline, before: before, after: after, cancellation: cancellation) { samples in
            meter?.advance(position ?? index, samples: samples, rate: timeline.sampleRate)
        }
        let object = try store.store(
            key: key, fileExtension: Self.fileExtension, role: .encoded, mimeType: Self.mimeType, data: frames,
            durationMs: timeline.durationMs, sampleRate: timeline.sampleRate, frames: timeline.totalSamples)
        try manifest.recordEncoded(object)
        return (object, true)
    }

    /// The neighbours' samples encoded around piece `index`: the previous piece's last and the
    /// next piece's first ``contextSamples`` (fewer when it is shorter; nil at the book's ends), by
    /// piece index. Unmastered: when exports are mastered, chapters begin and end in silence, and a
    /// long chapter's pieces are cut in the pauses between items.
    func edgeRanges(of index: Int) -> (before: (Int, Range<Int>)?, after: (Int, Range<Int>)?) {
        var before: (Int, Range<Int>)?
        var after: (Int, Range<Int>)?
        if index > 0 {
            let previous = pieces[index - 1]
            before = (index - 1, max(0, previous.totalSamples - Self.contextSamples)..<previous.totalSamples)
        }
        if index + 1 < pieces.count {
            after = (index + 1, 0..<min(pieces[index + 1].totalSamples, Self.contextSamples))
        }
        return (before, after)
    }

    /// The neighbours' edges as encoded around piece `index`, padded with silence to ``contextSamples``.
    func edges(of index: Int) throws -> (before: [Int16]?, after: [Int16]?) {
        let (beforeRange, afterRange) = edgeRanges(of: index)
        let before = try beforeRange.map { neighbour, range in
            let samples = try ChapterAudio.render(pieces[neighbour], store: store, samples: range)
            return [Int16](repeating: 0, count: Self.contextSamples - samples.count) + samples
        }
        let after = try afterRange.map { neighbour, range in
            let samples = try ChapterAudio.render(pieces[neighbour], store: store, samples: range)
            return samples + [Int16](repeating: 0, count: Self.contextSamples - samples.count)
        }
        return (before, after)
    }

    /// Encodes `before`, the piece and `after` in one ffmpeg run and keeps the frames of the
    /// piece's own samples, with the one before them (which primes a decoder: a player skips it).
    func encode(
        _ timeline: ChapterTimeline, before: [Int16]?, after: [Int16]?, cancellation: CancellationFlag?,
        advance: (Int) -> Void = { _ in }
    ) throws -> [UInt8] {
        try store.prepare()
        let scratch = "objects/tmp/encode-\(UUID().uuidString).\(getpid()).aac"
        let scratchURL = store.url(forRelativePath: scratch)
        close(try store.owned.createFile(scratch))
        defer { unlink(scratchURL.path) }
        let encoder = try FFmpegEncoder(
            sampleRate: timeline.sampleRate,
            arguments: [
                "-c:a", "aac", "-aac_coder", AudiobookExport.aacCoder, "-b:a", AudiobookExport.aacBitRate, "-f", "adts",
                scratchURL.path,
            ])
        do {
            if let before { try encoder.write(before[...], cancellation: cancellation) }
            try ChapterAudio.stream(timeline, store: store, settings: settings, cancellation: cancellation) {
                try encoder.write($0, cancellation: cancellation)
                advance($0.count)
            }
            if let after { try encoder.write(after[...], cancellation: cancellation) }
            try encoder.close()
        } catch {
            encoder.abandon()
            throw error
        }
        let bytes = [UInt8](try store.read(relativePath: scratch))
        // Frame j (after ffmpeg's one priming frame) decodes samples [(j - 1)·1024, j·1024) of what was
        // encoded: the chapter's own are frames P/1024 + 1 … (P + L)/1024, and frame P/1024 comes first.
        let frameSamples = ChapterTimeline.frameSamples
        let first = (before?.count ?? 0) / frameSamples
        let last = first + timeline.totalSamples / frameSamples
        guard let frames = ADTSFrames.frames(bytes), frames.count > last else {
            throw ExportError.encoderFailed(
                tool: "ffmpeg",
                detail: "the AAC encoding of \(timeline.chapter.title) is shorter than the chapter (or not ADTS)")
        }
        return Array(bytes[frames[first].lowerBound..<frames[last].upperBound])
    }
}
