import Foundation

/// Writes AAC frames into an MP4 file (an `.m4b` audiobook or an `.m4a` chapter) without
/// re-encoding: the frames of the chapters' encodings (``ChapterEncoder``) are copied into `mdat`,
/// then the sample tables, chapter marks and tags are written in `moov` at the end.
///
/// ffmpeg's MP4 muxer keeps ~72 bytes per frame until the end (320 MB for 54 hours: 4.2 million
/// frames); here memory holds one chapter's encoding, and the sample sizes are read again from the
/// encodings when the sample table is written. The layout follows what ffmpeg writes for
/// `-f mp4` (and what players read): an edit list that skips the priming frame, a `roll` sample
/// group for AAC's pre-roll, chapters both as a QuickTime text track (Apple's players) and as a
/// Nero `chpl` box (others; only up to 255 chapters, all its one-byte count holds), and iTunes tags.
struct MP4AudioFile {
    /// One chapter's frames: its encodings in the store (one, or a long chapter's pieces), the
    /// frames to skip at the start of each, its title.
    struct Chapter {
        var pieces: [Piece]
        var title: String
        /// The chapter's length in samples (a whole number of frames).
        var samples: Int

        init(pieces: [Piece], title: String, samples: Int) {
            self.pieces = pieces
            self.title = title
            self.samples = samples
        }

        /// A chapter of one encoding.
        init(path: String, skip: Int, title: String, samples: Int) {
            self.init(pieces: [Piece(path: path, skip: skip)], title: title, samples: samples)
        }
    }

    /// One encoding's frames, an MP4 chunk of its own.
    struct Piece {
        var path: String
        /// Frames of the encoding left out (its leading frame, except for the file's first piece).
        var skip: Int
    }

    /// iTunes `ilst` atoms for the tag names the M4B uses (``AudiobookExport/metadata(_:)``, the names
    /// ffmpeg gives them); others (the language, which `mdhd` carries) are not written as tags.
    static let tagAtoms = [
        "title": "\u{A9}nam", "artist": "\u{A9}ART", "album_artist": "aART", "album": "\u{A9}alb",
        "composer": "\u{A9}wrt",
        "comment": "\u{A9}cmt", "genre": "\u{A9}gen",
    ]

    let store: ObjectStore
    let sampleRate: Int
    /// ISO 639-2 code of the audio's language (`eng`).
    let language: String
    /// Tags by name (``tagAtoms``), in the order written.
    var tags: [(key: String, value: String)] = []
    /// The cover image (JPEG or PNG bytes).
    var cover: (data: Data, isPNG: Bool)?
    /// Write the chapters as marks (a text track and `chpl`); a chapter file of an EPUB has none.
    var marksChapters = true

    /// Writes the chapters' frames, in order, into the new empty file open at `descriptor` (closed
    /// when done). The first chapter's first frame primes the decoder: the edit list starts after it.
    func write(_ chapters: [Chapter], to descriptor: Int32, label: String, cancellation: CancellationFlag?) throws {
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try write(chapters, to: file, cancellation: cancellation)
            try file.close()
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError.writeFailed(path: label, reason: ErrorReason.text(error))
        }
    }

    /// Appends bytes to the file and counts where it is: box offsets are positions in the file.
    private struct BoxOutput {
        let file: FileHandle
        var position: UInt64 = 0

        mutating func put(_ bytes: [UInt8]) throws {
            try file.write(contentsOf: bytes)
            position += UInt64(bytes.count)
        }
    }

    /// Where `mdat` put the chapters' titles and frames, for the boxes that index them.
    private struct MediaLayout {
        var titleSamples: [[UInt8]] = []
        var titleOffset: UInt64 = 0
        var chunkOffsets: [UInt64] = []
        var framesPerChunk: [Int] = []
        var config: [UInt8] = []
        var payloadBytes = 0
    }

    private func write(_ chapters: [Chapter], to file: FileHandle, cancellation: CancellationFlag?) throws {
        var output = BoxOutput(file: file)
        try output.put(Self.box("ftyp", Array("M4B ".utf8) + Self.u32(0x200) + Array("isomiso2mp41M4B ".utf8)))
        let layout = try writeMediaData(chapters, to: &output, cancellation: cancellation)
        try writeMovie(chapters, layout: layout, to: &output, cancellation: cancellation)
    }

    /// `mdat` (with a 64-bit size, filled in once the frames are written): the chapter titles (the
    /// text track's samples) first, then each chapter's AAC frames, without their ADTS headers, as a chunk.
    private func writeMediaData(_ chapters: [Chapter], to output: inout BoxOutput, cancellation: CancellationFlag?)
        throws -> MediaLayout
    {
        var layout = MediaLayout()
        let mdatStart = output.position
        try output.put(Self.u32(1) + Array("mdat".utf8) + Self.u64(0))
        layout.titleOffset = output.position
        if marksChapters {
            for chapter in chapters {
                let text = Array(chapter.title.utf8.prefix(1000))
                let sample = Self.u16(text.count) + text + Self.u32(12) + Array("encd".utf8) + Self.u32(0x100)
                layout.titleSamples.append(sample)
                try output.put(sample)
            }
        }
        var config: [UInt8]?
        for chapter in chapters.flatMap(\.pieces) {
            if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
            let bytes = try [UInt8](store.read(relativePath: chapter.path))
            guard let frames = ADTSFrames.frames(bytes), frames.count > chapter.skip else {
                throw ExportError.encoderFailed(
                    tool: "forge",
                    detail:
                        "the encoded chapter \(chapter.path) is not whole AAC frames; remove it (forge fsck --repair) and export again"
                )
            }
            config = config ?? ADTSFrames.audioSpecificConfig(bytes)
            layout.chunkOffsets.append(output.position)
            layout.framesPerChunk.append(frames.count - chapter.skip)
            var payload: [UInt8] = []
            payload.reserveCapacity(bytes.count)
            for frame in frames[chapter.skip...] {
                let header = ADTSFrames.headerLength(bytes, at: frame.lowerBound)
                payload += bytes[(frame.lowerBound + header)..<frame.upperBound]
            }
            layout.payloadBytes += payload.count
            try output.put(payload)
        }
        guard let config else { throw ExportError.encoderFailed(tool: "forge", detail: "no AAC frames to write") }
        layout.config = config
        let mdatEnd = output.position
        try output.file.seek(toOffset: mdatStart + 8)
        try output.file.write(contentsOf: Self.u64(mdatEnd - mdatStart))
        try output.file.seek(toOffset: mdatEnd)
        return layout
    }

    /// `moov`: the audio track (its frame sizes streamed, 4 bytes a frame, chapter by chapter),
    /// the chapter text track and the book's metadata.
    private func writeMovie(
        _ chapters: [Chapter], layout: MediaLayout, to output: inout BoxOutput, cancellation: CancellationFlag?
    ) throws {
        let frameSamples = ChapterTimeline.frameSamples
        let chapterTimescale = 1000
        let totalSamples = chapters.reduce(0) { $0 + $1.samples }
        let durationMs = Int((Int64(totalSamples) * 1000 + Int64(sampleRate) / 2) / Int64(sampleRate))
        let (framesPerChunk, chunkOffsets, config) = (layout.framesPerChunk, layout.chunkOffsets, layout.config)
        let frameCount = framesPerChunk.reduce(0, +)
        let mediaDuration = frameCount * frameSamples
        let averageBitRate = Int(Double(layout.payloadBytes * 8) / (Double(max(1, mediaDuration)) / Double(sampleRate)))
        // The audio track. Its sample sizes (4 bytes a frame) are streamed between `head` and `tail`.
        let stsd = sampleDescription(config: config, averageBitRate: averageBitRate)
        let stts = Self.fullBox("stts", 0, 0, Self.u32(1) + Self.u32(frameCount) + Self.u32(frameSamples))
        var runs: [(first: Int, count: Int)] = []
        for (index, count) in framesPerChunk.enumerated() where runs.last?.count != count {
            runs.append((index + 1, count))
        }
        let stsc = Self.fullBox(
            "stsc", 0, 0, Self.u32(runs.count) + runs.flatMap { Self.u32($0.first) + Self.u32($0.count) + Self.u32(1) })
        let co64 = Self.fullBox("co64", 0, 0, Self.u32(chunkOffsets.count) + chunkOffsets.flatMap(Self.u64))
        let sgpd = Self.fullBox("sgpd", 1, 0, Array("roll".utf8) + Self.u32(2) + Self.u32(1) + Self.u16(0xFFFF))
        let sbgp = Self.fullBox("sbgp", 0, 0, Array("roll".utf8) + Self.u32(1) + Self.u32(frameCount) + Self.u32(1))
        let sizesLength = 4 * frameCount
        let stszHead =
            Self.fullBoxHeader("stsz", 0, 0, contentLength: 8 + sizesLength) + Self.u32(0) + Self.u32(frameCount)
        let stblLength =
            stsd.count + stts.count + stsc.count + stszHead.count + sizesLength + co64.count + sgpd.count + sbgp.count
        let smhd = Self.fullBox("smhd", 0, 0, Self.u32(0))
        let dinf = Self.box("dinf", Self.fullBox("dref", 0, 0, Self.u32(1) + Self.fullBox("url ", 0, 1, [])))
        let minfLength = smhd.count + dinf.count + 8 + stblLength
        let mdhd = mediaHeader(duration: mediaDuration)
        let hdlr = Self.fullBox(
            "hdlr", 0, 0,
            Self.u32(0) + Array("soun".utf8) + [UInt8](repeating: 0, count: 12) + Array("SoundHandler".utf8) + [0])
        let mdiaLength = mdhd.count + hdlr.count + 8 + minfLength
        let tkhd = Self.trackHeader(id: 1, flags: 3, duration: durationMs, alternateGroup: 1, volume: 0x0100)
        let edts = Self.box(
            "edts",
            Self.fullBox("elst", 0, 0, Self.u32(1) + Self.u32(durationMs) + Self.u32(frameSamples) + Self.u32(0x10000)))
        let tref = marksChapters ? Self.box("tref", Self.box("chap", Self.u32(2))) : []
        let trakLength = tkhd.count + edts.count + tref.count + 8 + mdiaLength
        let chapterTrack =
            marksChapters
            ? chapterTextTrack(
                chapters, samples: layout.titleSamples, offset: layout.titleOffset, durationMs: durationMs,
                timescale: chapterTimescale) : []
        let udta = self.userData(chapters)
        let mvhd = Self.fullBox(
            "mvhd", 0, 0,
            Self.u32(0) + Self.u32(0) + Self.u32(1000) + Self.u32(durationMs) + Self.u32(0x10000) + Self.u16(0x100)
                + [UInt8](repeating: 0, count: 10) + Self.matrix + [UInt8](repeating: 0, count: 24)
                + Self.u32(marksChapters ? 3 : 2))
        let moovLength = mvhd.count + 8 + trakLength + chapterTrack.count + udta.count
        let head =
            Self.header("moov", moovLength) + mvhd + Self.header("trak", trakLength) + tkhd + edts + tref
            + Self.header("mdia", mdiaLength) + mdhd + hdlr + Self.header("minf", minfLength) + smhd + dinf
            + Self.header("stbl", stblLength) + stsd + stts + stsc + stszHead
        try output.put(head)
        try putFrameSizes(of: chapters, to: &output, cancellation: cancellation)
        try output.put(co64 + sgpd + sbgp + chapterTrack + udta)
    }

    /// `stsd`: the AAC sample description, with its decoder configuration and bit rate.
    private func sampleDescription(config: [UInt8], averageBitRate: Int) -> [UInt8] {
        let esds = Self.fullBox(
            "esds", 0, 0,
            Self.descriptor(
                3,
                Self.u16(1) + [0]
                    + Self.descriptor(
                        4,
                        [0x40, 0x15, 0, 0, 0] + Self.u32(averageBitRate) + Self.u32(averageBitRate)
                            + Self.descriptor(5, config)) + Self.descriptor(6, [2])))
        let mp4a = Self.box(
            "mp4a",
            [UInt8](repeating: 0, count: 6) + Self.u16(1) + [UInt8](repeating: 0, count: 8)
                + Self.u16(1) + Self.u16(16) + Self.u16(0) + Self.u16(0) + Self.u32(sampleRate << 16) + esds)
        return Self.fullBox("stsd", 0, 0, Self.u32(1) + mp4a)
    }

    /// `mdhd` for `duration` samples: version 1 when 32 bits cannot count them (at 22.05 kHz, a
    /// book longer than 54 hours).
    private func mediaHeader(duration: Int) -> [UInt8] {
        duration > Int(UInt32.max)
            ? Self.fullBox(
                "mdhd", 1, 0,
                Self.u64(0) + Self.u64(0) + Self.u32(sampleRate) + Self.u64(UInt64(duration))
                    + Self.u16(Self.packedLanguage(language)) + Self.u16(0))
            : Self.fullBox(
                "mdhd", 0, 0,
                Self.u32(0) + Self.u32(0) + Self.u32(sampleRate) + Self.u32(duration)
                    + Self.u16(Self.packedLanguage(language)) + Self.u16(0))
    }

    /// `stsz`'s sizes, 4 bytes a frame, streamed a piece of a chapter at a time from its ADTS frames.
    private func putFrameSizes(
        of chapters: [Chapter], to output: inout BoxOutput, cancellation: CancellationFlag?
    ) throws {
        var sizes: [UInt8] = []
        for chapter in chapters.flatMap(\.pieces) {
            if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
            let bytes = try [UInt8](store.read(relativePath: chapter.path))
            guard let frames = ADTSFrames.frames(bytes) else { continue }
            sizes.removeAll(keepingCapacity: true)
            for frame in frames[chapter.skip...] {
                sizes += Self.u32(frame.count - ADTSFrames.headerLength(bytes, at: frame.lowerBound))
            }
            try output.put(sizes)
        }
    }

    /// The QuickTime chapter track: one text sample (the title) per chapter, timed in milliseconds.
    private func chapterTextTrack(
        _ chapters: [Chapter], samples: [[UInt8]], offset: UInt64, durationMs: Int, timescale: Int
    ) -> [UInt8] {
        var starts: [Int] = []
        var total = 0
        for chapter in chapters {
            starts.append(Int((Int64(total) * Int64(timescale) + Int64(sampleRate) / 2) / Int64(sampleRate)))
            total += chapter.samples
        }
        let durations = starts.indices.map { (($0 + 1 < starts.count ? starts[$0 + 1] : durationMs) - starts[$0]) }
        // The text sample description and the media header ffmpeg writes for a chapter track (display
        // flags, colours, a one-font table; QuickTime's base media header with a text atom).
        let text = Self.bytes(
            hex:
                "0000003b7465787400000000000000010000000100000000000000000000000000000000000000010000000000000000000d667461620001000100"
        )
        let stbl = Self.box(
            "stbl",
            Self.fullBox("stsd", 0, 0, Self.u32(1) + text)
                + Self.fullBox(
                    "stts", 0, 0, Self.u32(durations.count) + durations.flatMap { Self.u32(1) + Self.u32($0) })
                + Self.fullBox("stsc", 0, 0, Self.u32(1) + Self.u32(1) + Self.u32(samples.count) + Self.u32(1))
                + Self.fullBox(
                    "stsz", 0, 0, Self.u32(0) + Self.u32(samples.count) + samples.flatMap { Self.u32($0.count) })
                + Self.fullBox("co64", 0, 0, Self.u32(1) + Self.u64(offset)))
        let gmhd = Self.bytes(
            hex:
                "0000004c676d686400000018676d696e000000000040800080008000000000000000002c74657874000100000000000000000000000000000001000000000000000000000000000040000000"
        )
        let dinf = Self.box("dinf", Self.fullBox("dref", 0, 0, Self.u32(1) + Self.fullBox("url ", 0, 1, [])))
        let mdia = Self.box(
            "mdia",
            Self.fullBox(
                "mdhd", 0, 0,
                Self.u32(0) + Self.u32(0) + Self.u32(timescale) + Self.u32(durationMs) + Self.u16(0) + Self.u16(0))
                + Self.fullBox(
                    "hdlr", 0, 0,
                    Self.u32(0) + Array("text".utf8) + [UInt8](repeating: 0, count: 12) + Array("SubtitleHandler".utf8)
                        + [0])
                + Self.box("minf", gmhd + dinf + stbl))
        return Self.box(
            "trak",
            Self.trackHeader(id: 2, flags: 2, duration: durationMs, alternateGroup: 0, volume: 0)
                + Self.box(
                    "edts",
                    Self.fullBox("elst", 0, 0, Self.u32(1) + Self.u32(durationMs) + Self.u32(0) + Self.u32(0x10000)))
                + mdia)
    }

    /// The most chapters Nero's `chpl` box can list (its count is one byte).
    static let maximumNeroChapters = 255

    /// `udta`: the iTunes tags and, with chapter marks, Nero's `chpl` (start times in 100 ns) when it can list them all.
    private func userData(_ chapters: [Chapter]) -> [UInt8] {
        func item(_ atom: String, _ value: String) -> [UInt8] {
            value.isEmpty ? [] : Self.box(atom, Self.box("data", Self.u32(1) + Self.u32(0) + Array(value.utf8)))
        }
        var items =
            tags.flatMap { tag in Self.tagAtoms[tag.key].map { item($0, tag.value) } ?? [] }
            + item("\u{A9}too", "Forge")
        if let cover {
            items += Self.box(
                "covr", Self.box("data", Self.u32(cover.isPNG ? 14 : 13) + Self.u32(0) + [UInt8](cover.data)))
        }
        let meta = Self.fullBox(
            "meta", 0, 0,
            Self.fullBox(
                "hdlr", 0, 0, Self.u32(0) + Array("mdir".utf8) + Array("appl".utf8) + [UInt8](repeating: 0, count: 9))
                + Self.box("ilst", items))
        // Nero's list counts its chapters in one byte: a longer book's list would lose chapters in
        // the players that read it (VLC), so it is not written, and they read the text track.
        guard marksChapters, chapters.count <= Self.maximumNeroChapters else { return Self.box("udta", meta) }
        var chpl = Self.u32(0) + [UInt8(chapters.count)]
        var start = 0
        for chapter in chapters {
            let title = Array(chapter.title.utf8.prefix(255))
            chpl +=
                Self.u64(UInt64((Int64(start) * 10_000_000 + Int64(sampleRate) / 2) / Int64(sampleRate))) + [
                    UInt8(title.count)
                ] + title
            start += chapter.samples
        }
        return Self.box("udta", meta + Self.fullBox("chpl", 1, 0, chpl))
    }

    // MARK: Boxes

    static let matrix: [UInt8] =
        u32(0x10000) + u32(0) + u32(0) + u32(0) + u32(0x10000) + u32(0) + u32(0) + u32(0) + u32(0x4000_0000)

    static func trackHeader(id: Int, flags: Int, duration: Int, alternateGroup: Int, volume: Int) -> [UInt8] {
        fullBox(
            "tkhd", 0, flags,
            u32(0) + u32(0) + u32(id) + u32(0) + u32(duration) + u32(0) + u32(0) + u16(0) + u16(alternateGroup)
                + u16(volume) + u16(0) + matrix + u32(0) + u32(0))
    }

    static func header(_ type: String, _ contentLength: Int) -> [UInt8] {
        u32(8 + contentLength) + Array(type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }
    static func box(_ type: String, _ content: [UInt8]) -> [UInt8] { header(type, content.count) + content }
    static func fullBoxHeader(_ type: String, _ version: UInt8, _ flags: Int, contentLength: Int) -> [UInt8] {
        header(type, 4 + contentLength) + [
            version, UInt8((flags >> 16) & 0xFF), UInt8((flags >> 8) & 0xFF), UInt8(flags & 0xFF),
        ]
    }
    static func fullBox(_ type: String, _ version: UInt8, _ flags: Int, _ content: [UInt8]) -> [UInt8] {
        fullBoxHeader(type, version, flags, contentLength: content.count) + content
    }
    /// An MPEG-4 descriptor (ES, decoder config, decoder specific info, SL config) with its length in four bytes.
    static func descriptor(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let length = content.count
        return [
            tag, UInt8(0x80 | ((length >> 21) & 0x7F)), UInt8(0x80 | ((length >> 14) & 0x7F)),
            UInt8(0x80 | ((length >> 7) & 0x7F)), UInt8(length & 0x7F),
        ] + content
    }
    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
    static func u16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
    static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
    static func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8((value >> (56 - 8 * UInt64($0))) & 0xFF) } }
    /// ISO 639-2 in `mdhd`'s three 5-bit letters.
    static func packedLanguage(_ code: String) -> Int {
        let letters = Array(code.lowercased().unicodeScalars.prefix(3))
        guard letters.count == 3, letters.allSatisfy({ ("a"..."z").contains($0) }) else { return 0x55C4 }  // "und"
        return letters.reduce(0) { ($0 << 5) | Int($1.value - 0x60) }
    }
}
