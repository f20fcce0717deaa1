import Foundation
import Synchronization

/// The audiobook files: one `.m4b` for the whole book (AAC in MP4, chapter marks at each chapter's
/// exact start, title, author, narrator, language, cover), and the ACX set (one MP3 per chapter at
/// 192 kbps CBR, 44.1 kHz, mastered to ACX). ffmpeg encodes; chapters are rendered, mastered and
/// streamed to it one at a time, so memory holds one chapter whatever the book's length.
enum AudiobookExport {
    /// AAC bit rate of the M4B: plenty for mono speech (audiobook stores use 64 kbps).
    static let aacBitRate = "64k"

    /// ffmpeg's AAC coder: "fast" rather than its default ("twoloop"), which is several times
    /// slower and, on speech at 64 kbps, decodes further from the input.
    static let aacCoder = "fast"

    /// Writes `m4b/<title>.m4b`. With `encoded` (every chapter's AAC, ``ChapterEncoder``: a chapter's
    /// encoding, or a long chapter's pieces) the frames are joined and copied into the file (seconds
    /// for a long book); without (chapters at different sample rates), the book is encoded here by
    /// ffmpeg in one stream.
    static func writeM4B(
        _ timelines: [ChapterTimeline], settings: ExportSettings, cover: BookCover?, store: ObjectStore,
        encoded: [[StoredObject]]?, to writer: inout ExportWriter
    ) throws {
        guard let rate = timelines.first?.sampleRate else { return }
        let path = ExportPaths.m4b(title: settings.title)
        if let encoded {
            // The first piece's leading frame primes the decoder (the file's edit list skips it);
            // every other piece's is left out: the previous piece's last frame is in its place.
            let chapters = zip(timelines, encoded).enumerated().map { index, pair in
                let pieces = pair.1.enumerated().map {
                    MP4AudioFile.Piece(path: $1.path, skip: index == 0 && $0 == 0 ? 0 : 1)
                }
                return MP4AudioFile.Chapter(pieces: pieces, title: pair.0.chapter.title, samples: pair.0.totalSamples)
            }
            var file = MP4AudioFile(store: store, sampleRate: rate, language: isoLanguage(settings.language))
            file.tags = metadata(settings)
            file.cover = cover.map { ($0.data, $0.isPNG) }
            let (label, cancellation) = (writer.finalPath(path), writer.cancellation)
            try writer.stream(path) { descriptor in
                try file.write(chapters, to: descriptor, label: label, cancellation: cancellation)
            }
            writer.progress?(ExportProgress(phase: "m4b", done: timelines.count, total: timelines.count))
        } else {
            try encodeM4B(
                timelines, rate: rate, path: path, cover: cover, settings: settings, store: store, to: &writer)
        }
    }

    /// The M4B of chapters at different sample rates: resampled to the first chapter's rate and
    /// encoded by ffmpeg in one stream, with its chapter list and the cover given as files.
    private static func encodeM4B(
        _ timelines: [ChapterTimeline], rate: Int, path: String, cover: BookCover?,
        settings: ExportSettings, store: ObjectStore,
        to writer: inout ExportWriter
    ) throws {
        var marks = ";FFMETADATA1\n"
        for (key, value) in metadata(settings) { marks += "\(key)=\(escaped(value))\n" }
        var startSample = 0
        for timeline in timelines {
            let length = timeline.totalSamples * rate / max(1, timeline.sampleRate)
            marks +=
                "[CHAPTER]\nTIMEBASE=1/\(rate)\nSTART=\(startSample)\nEND=\(startSample + length)\ntitle=\(escaped(timeline.chapter.title))\n"
            startSample += length
        }
        let chapterList = try writer.scratchFile("chapters.ffmetadata", marks)
        defer { unlink(chapterList.path) }
        let coverFile = try cover.map { try writer.scratchFile("cover.\($0.fileExtension)", data: $0.data) }
        defer { if let coverFile { unlink(coverFile.path) } }
        let cancellation = writer.cancellation
        let meter = PhaseMeter(phase: "m4b", lengths: timelines.map(\.durationMs), sink: writer.progress)
        try writer.produce(path) { output in
            var arguments = ["-i", chapterList.path]
            if let coverFile { arguments += ["-i", coverFile.path] }
            arguments += ["-map", "0:a", "-map_metadata", "1", "-map_chapters", "1"]
            if coverFile != nil { arguments += ["-map", "2:v", "-c:v", "copy", "-disposition:v:0", "attached_pic"] }
            arguments += [
                "-c:a", "aac", "-aac_coder", aacCoder, "-b:a", aacBitRate, "-metadata:s:a:0",
                "language=\(isoLanguage(settings.language))", "-f", "mp4", output.path,
            ]
            let encoder = try FFmpegEncoder(sampleRate: rate, arguments: arguments)
            do {
                for (index, timeline) in timelines.enumerated() {
                    defer { meter.finish(index) }
                    if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                    if timeline.sampleRate == rate {
                        // Item by item (unmastered): memory holds one item, not the chapter.
                        try ChapterAudio.stream(timeline, store: store, settings: settings, cancellation: cancellation)
                        {
                            try encoder.write($0, cancellation: cancellation)
                            meter.advance(index, samples: $0.count, rate: rate)
                        }
                    } else {
                        let samples = try ChapterAudio.exported(timeline, store: store, settings: settings)
                        try encoder.write(
                            Resampler.resample(samples, from: timeline.sampleRate, to: rate)[...],
                            cancellation: cancellation)
                    }
                }
                try encoder.close()
            } catch {
                encoder.abandon()
                throw error
            }
        }
    }

    /// One chapter's file of the ACX set: where it goes, its title and track, and its key — what the
    /// file is made from (the chapter's audio and places, the mastering, ffmpeg, its name and tags),
    /// by which a file made elsewhere (a shard) is taken instead of mastering the chapter again.
    struct ACXChapterFile: Sendable, Equatable {
        var ordinal: Int
        var path: String
        var title: String
        var track: String
        var key: String
        /// The stretch of the chapter (samples) this file holds: nil for the whole chapter, else one
        /// part of a chapter longer than ACX takes in one file (``acxPartLimitMs``).
        var part: Range<Int>?

        /// The audio of this file: the chapter's timeline, or its part's.
        func timeline(of chapter: ChapterTimeline) -> ChapterTimeline {
            part.map { chapter.piece($0) } ?? chapter
        }
    }

    /// ACX takes files of up to 120 minutes: a longer chapter is written in parts of at most about
    /// this (each cut in a pause between items, mastered and encoded on its own, and in a sharded
    /// build by the shard its place in the book falls to), named `NN-title-part-K.mp3`. Debug builds
    /// take `FORGE_ACX_PART_SECONDS`, so the tests cut a short chapter.
    static var acxPartLimitMs: Int {
        if let seconds = TestHook.value("FORGE_ACX_PART_SECONDS").flatMap(Int.init), seconds > 0 {
            return seconds * 1000
        }
        return 115 * 60_000
    }

    /// What makes an ACX file: bump when its making changes.
    static let acxMethod = "acx-file-1"

    /// How the ACX set of `chapterCount` chapters and `credits` numbers its files: the files
    /// before the first chapter (1 with an opening credit), the files in all, the first file's
    /// number (0 for the opening credit's file, else 1), and the digits a number is written with.
    static func acxNumbering(chapterCount: Int, credits: BookCredits) -> (
        opening: Int, count: Int, first: Int, width: Int
    ) {
        let opening = credits.opening == nil ? 0 : 1
        let count = chapterCount + opening + (credits.closing == nil ? 0 : 1)
        return (opening, count, opening == 0 ? 1 : 0, max(2, String(count).count))
    }

    /// The ACX set's chapter files for `timelines` (some or all of a book of `chapterCount`
    /// chapters): numbered and tracked as the whole set numbers them, with or without credits.
    static func acxChapterFiles(_ timelines: [ChapterTimeline], chapterCount: Int, settings: ExportSettings) throws
        -> [ACXChapterFile]
    {
        let (opening, count, first, width) = acxNumbering(chapterCount: chapterCount, credits: BookCredits(settings))
        let identity = try FFmpegEncoder.identity()
        let tags = metadata(settings).map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        let limit = acxPartLimitMs
        return timelines.flatMap { chapter in
            let index = chapter.chapter.ordinal - 1 + opening
            let stem = ExportPaths.acx(track: index + first, width: width, title: chapter.chapter.title)
            let track = "\(index + 1)/\(count)"
            let cuts = chapter.pieceCuts(limitMs: limit)
            let bounds = [0] + cuts + [chapter.totalSamples]
            let parts: [Range<Int>?] = cuts.isEmpty ? [nil] : zip(bounds, bounds.dropFirst()).map { $0..<$1 }
            return parts.enumerated().map { place, part in
                let (path, title) =
                    part == nil
                    ? ("\(stem).mp3", chapter.chapter.title)
                    : (
                        "\(stem)-part-\(place + 1).mp3",
                        "\(chapter.chapter.title) (part \(place + 1) of \(parts.count))"
                    )
                var file = ACXChapterFile(
                    ordinal: chapter.chapter.ordinal, path: path, title: title, track: track, key: "", part: part)
                let timeline = file.timeline(of: chapter)
                var description = "\(acxMethod)|\(identity)|\(Resampler.identity)|\(path)|\(title)|\(track)|\(tags)"
                description +=
                    "|\(Mastering.identity(settings.mastering))|\(timeline.sampleRate)|\(timeline.totalSamples)"
                for item in timeline.items {
                    description += "|\(item.audioPath)@\(item.startSample)+\(item.sampleCount)"
                }
                file.key = ContentHash.sha256Hex(description)
                return file
            }
        }
    }

    /// Writes `acx/NN-<chapter title>.mp3`, one per chapter (a chapter too long for one file in
    /// parts, `NN-<chapter title>-part-K.mp3`), in order.
    /// Opening and closing credits (when the settings have them) get files of their own,
    /// `00-opening-credits.mp3` and `NN-closing-credits.mp3` after the last chapter. A chapter's
    /// file in `prepared` (by path: made elsewhere, for the same key) is copied, not mastered.
    /// With `only`, just those paths are written (a shard's chapters), and no credits.
    static func writeACXSet(
        _ timelines: [ChapterTimeline], settings: ExportSettings, store: ObjectStore, to writer: inout ExportWriter,
        prepared: [String: URL] = [:], only: Set<String>? = nil, chapterCount: Int? = nil
    ) throws {
        // Each file's audio plays into a sink as the settings master it: a chapter streamed from the
        // store (memory does not grow with it, however long), a credit from its few seconds.
        typealias Play = @Sendable (ExportSettings, (ArraySlice<Int16>) throws -> Void) throws -> Void
        var files: [(path: String, title: String, track: String, rate: Int, durationMs: Int, play: Play)] = []
        // Chapters are named and numbered by ``acxChapterFiles`` (as a shard names its few); credits
        // take the first and last numbers.
        let chapters = chapterCount ?? timelines.count
        let texts = BookCredits(settings)
        let (_, count, first, width) = acxNumbering(chapterCount: chapters, credits: texts)
        let credits = try [texts.opening, texts.closing].map { text in
            try text.flatMap { text -> (rate: Int, durationMs: Int, play: Play)? in
                // Writing some chapters only (a shard's), the credits are not spoken.
                guard only == nil else { return nil }
                let speech = try spokenCredit(text, settings: settings, store: store)
                return (
                    speech.sampleRate, speech.samples.count * 1000 / max(1, speech.sampleRate),
                    { settings, sink in try sink(try credit(speech, settings: settings)[...]) }
                )
            }
        }
        if let credit = credits[0] {
            files.append(
                (
                    ExportPaths.acx(track: first, width: width, title: "Opening Credits") + ".mp3", "Opening Credits",
                    "1/\(count)",
                    credit.rate, credit.durationMs, credit.play
                ))
        }
        // Every pass of a chapter's mastering, not only the encode, stops at a stop between items, and
        // is seen to go on (a three-hour chapter's passes take minutes before its MP3 has a frame).
        let stop = writer.cancellation
        let chapterFiles = try acxChapterFiles(timelines, chapterCount: chapters, settings: settings)
        let byOrdinal = Dictionary(timelines.map { ($0.chapter.ordinal, $0) }, uniquingKeysWith: { first, _ in first })
        let fileTimelines = chapterFiles.compactMap { file in byOrdinal[file.ordinal].map { file.timeline(of: $0) } }
        let lengths =
            (credits[0].map { [$0.durationMs] } ?? []) + fileTimelines.map(\.durationMs)
            + (credits[1].map { [$0.durationMs] } ?? [])
        let meter = PhaseMeter(phase: "acx", lengths: lengths, sink: writer.progress)
        for (timeline, file) in zip(fileTimelines, chapterFiles) {
            files.append(
                (
                    file.path, file.title, file.track, timeline.sampleRate, timeline.durationMs,
                    { settings, sink in
                        try ChapterAudio.stream(
                            timeline, store: store, settings: settings, cancellation: stop, reading: meter.touch, sink)
                    }
                ))
        }
        if let credit = credits[1] {
            files.append(
                (
                    ExportPaths.acx(track: count - 1 + first, width: width, title: "Closing Credits") + ".mp3",
                    "Closing Credits",
                    "\(count)/\(count)", credit.rate, credit.durationMs, credit.play
                ))
        }
        // One file per core at a time (each is mastered in passes and encoded by its own ffmpeg).
        let set = files
        let chosen = set.indices.filter { only?.contains(set[$0].path) ?? true }
        // The meter counts every file of the set: a shard's few are reported per file only.
        let counted = only == nil ? meter : nil
        try writer.writeInParallel(
            chosen.count, jobs: ChapterAudio.encodingJobs(settings), phase: "acx", meter: counted
        ) { position, fileWriter in
            let index = chosen[position]
            let file = set[index]
            if let made = prepared[file.path] {
                try fileWriter.copy(made, to: file.path)
                return
            }
            try writeACXFile(
                file.path, title: file.title, track: file.track, rate: file.rate, play: file.play, settings: settings,
                to: &fileWriter
            ) { counted?.advance(index, samples: $0, rate: file.rate) }
        }
    }

    /// Writes one file of the ACX set. Resampling to 44.1 kHz and MP3 encoding raise peaks a little
    /// (up to 0.8 dB seen): the encoded file is measured, and the audio limited further until it meets ACX.
    private static func writeACXFile(
        _ path: String, title: String, track: String, rate: Int,
        play: (ExportSettings, (ArraySlice<Int16>) throws -> Void) throws -> Void, settings: ExportSettings,
        to writer: inout ExportWriter,
        advance: @escaping @Sendable (Int) -> Void
    ) throws {
        var mastered = settings
        var margin = 0.0
        let cancellation = writer.cancellation
        for attempt in 0..<acxAttempts {
            do {
                try writer.produce(path) { output in
                    var arguments = ["-ar", "44100", "-c:a", "libmp3lame", "-b:a", "192k", "-id3v2_version", "3"]
                    var tags = metadata(settings).filter { $0.key != "title" }
                    tags.append(("title", title))
                    tags.append(("track", track))
                    for (key, value) in tags { arguments += ["-metadata", "\(key)=\(value)"] }
                    arguments += ["-f", "mp3", output.path]
                    let encoder = try FFmpegEncoder(sampleRate: rate, arguments: arguments)
                    do {
                        try play(mastered) { block in
                            if cancellation?.isCancelled == true { throw ExportError.cancelled(written: 0) }
                            try encoder.write(block, cancellation: cancellation)
                            advance(block.count)
                        }
                        try encoder.close()
                    } catch {
                        encoder.abandon()
                        throw error
                    }
                    let peak = try encodedPeak(output)
                    if peak > acxPeakLimit, attempt + 1 < acxAttempts {
                        throw PeakOvershoot(excess: peak - acxPeakLimit)
                    }
                }
                return
            } catch let overshoot as PeakOvershoot {
                margin += overshoot.excess + 0.2
                mastered = settings
                if var mastering = mastered.mastering {
                    mastering.samplePeakCeiling = (mastering.samplePeakCeiling ?? mastering.truePeakCeiling) - margin
                    mastering.truePeakCeiling -= margin
                    mastered.mastering = mastering
                }
            }
        }
    }

    /// ACX's peak limit, and how many encodings a file gets to meet it.
    static let acxPeakLimit = -3.0
    static let acxAttempts = 3

    private struct PeakOvershoot: Error {
        var excess: Double
    }

    /// The highest sample of an encoded file, dBFS.
    static func encodedPeak(_ file: URL) throws -> Double {
        // Read a block at a time: a 3-hour chapter at 44.1 kHz is 950 MB decoded whole.
        let reader = try SoundFile.Reader(url: file)
        var peak = 0
        while true {
            let block = try reader.read()
            if block.isEmpty { break }
            for sample in block { peak = max(peak, abs(Int(sample))) }
        }
        return peak > 0 ? 20 * log10(Double(peak) / 32768) : -.infinity
    }

    /// A credit as a synthesis worker spoke it into the store (``ExportSettings/creditAudio``).
    static func spokenCredit(_ text: String, settings: ExportSettings, store: ObjectStore) throws -> DecodedAudio {
        guard let path = settings.creditAudio[text], store.contains(relativePath: path) else {
            throw ExportError.creditNotSpoken(text: text)
        }
        do {
            return try SoundFile.decode(fileAt: store.url(forRelativePath: path))
        } catch {
            throw ExportError.missingAudio(itemID: "credit", path: path)
        }
    }

    /// A spoken credit with the mastering's room tone and loudness.
    static func credit(_ speech: DecodedAudio, settings: ExportSettings) throws -> [Int16] {
        let rate = speech.sampleRate
        let head = [Int16](repeating: 0, count: settings.chapterHeadMs * rate / 1000)
        let tail = [Int16](repeating: 0, count: settings.chapterTailMs * rate / 1000)
        let samples = head + speech.samples + tail
        guard let mastering = settings.mastering else { return samples }
        return try Mastering.master(samples, sampleRate: rate, settings: mastering)
    }

    /// The book's tags, as ffmpeg names them for MP4 and ID3.
    static func metadata(_ settings: ExportSettings) -> [(key: String, value: String)] {
        var tags: [(String, String)] = [
            ("title", settings.title), ("album", settings.title), ("genre", "Audiobook"),
            ("language", settings.language),
        ]
        if let author = settings.author { tags += [("artist", author), ("album_artist", author)] }
        if let narrator = settings.narrator {
            tags += [("composer", narrator), ("comment", "Narrated by \(narrator)")]
        }
        return tags
    }

    /// The ISO 639-2 code MP4 tracks carry for a BCP 47 tag's language ("en-GB" → "eng").
    static func isoLanguage(_ tag: String) -> String {
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? "und"
        let codes = [
            "en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "zh": "zho",
            "ja": "jpn",
            "ru": "rus", "pl": "pol", "sv": "swe", "da": "dan", "fi": "fin", "no": "nor", "nb": "nob", "cs": "ces",
            "el": "ell",
            "tr": "tur", "hi": "hin", "ar": "ara", "ko": "kor", "cmn": "zho", "yue": "yue",
        ]
        return codes[primary] ?? (primary.count == 3 ? primary : "und")
    }

    /// A value escaped for ffmpeg's metadata file (`=`, `;`, `#`, `\` and line breaks).
    static func escaped(_ value: String) -> String {
        var text = ""
        for character in value {
            if "=;#\\".contains(character) { text.append("\\") }
            text.append(character == "\n" || character == "\r" ? " " : character)
        }
        return text
    }
}
