import Foundation
import Testing
import ZIPFoundation

@testable import Forge

/// Loudness measured by libebur128, mastering in exports, the M4B and the ACX set, and the
/// `forge check` gate — checked with the real ffmpeg and ffprobe.
@Suite("Audiobook: loudness, mastering, M4B, ACX", .serialized)
struct AudiobookTests {
    static let ffprobe: URL? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Runs a tool and returns what it printed on standard output and standard error.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }

    static func probe(_ file: URL) throws -> [String: Any] {
        let result = try run(
            ffprobe!.path, ["-v", "error", "-show_chapters", "-show_format", "-show_streams", "-of", "json", file.path])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    /// `file` decoded by ffmpeg to 16-bit samples, as a player decodes it (through `scratch`, a raw file).
    static func decodedByFFmpeg(_ file: URL, scratch: URL) throws -> [Int16] {
        let result = try run(
            try FFmpegEncoder.locate().path, ["-v", "error", "-i", file.path, "-f", "s16le", scratch.path])
        try #require(result.status == 0, "ffmpeg could not decode \(file.lastPathComponent): \(result.errors)")
        return try Data(contentsOf: scratch).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// How close `decoded` is to `source` over `range`, in dB.
    static func snr(_ source: [Int16], _ decoded: [Int16], over range: Range<Int>) -> Double {
        var signal = 1.0
        var error = 1.0
        for index in range where index < decoded.count && index < source.count {
            let (s, d) = (Double(source[index]), Double(decoded[index]))
            signal += s * s
            error += (d - s) * (d - s)
        }
        return 10 * log10(signal / error)
    }

    /// A 997 Hz tone with `head` ms of quiet before and `tail` after; `noise` is the quiet's amplitude.
    static func tone(peak dBFS: Double, seconds: Double, head: Int, tail: Int, noise: Int16 = 0, rate: Int = 22050)
        -> [Int16]
    {
        var generator = SystemRandomNumberGenerator()
        func quiet(_ ms: Int) -> [Int16] {
            (0..<(ms * rate / 1000)).map { _ in noise == 0 ? 0 : Int16.random(in: -noise...noise, using: &generator) }
        }
        let amplitude = pow(10, dBFS / 20) * 32767
        let tone = (0..<Int(seconds * Double(rate))).map {
            Int16((amplitude * sin(2 * Double.pi * 997 * Double($0) / Double(rate))).rounded())
        }
        return quiet(head) + tone + quiet(tail)
    }

    @Test func levelsAgreeWithBS1770AndWithFFmpeg() throws {
        let samples = Self.tone(peak: -20, seconds: 10, head: 700, tail: 2000)
        let meter = try AudioLevelMeter(sampleRate: 22050)
        meter.add(samples[...])
        let levels = meter.finish()
        // A mono 997 Hz sine at −20 dBFS peak is −23.0 LUFS (BS.1770's K-weighting is specified at
        // 48 kHz; at 22.05 kHz libebur128's filter lands 0.1 dB off); its RMS over the whole file counts the silence too.
        #expect(abs(levels.integratedLoudness - -23.0) < 0.15, "\(levels)")
        #expect(abs(levels.samplePeak - -20.0) < 0.05)
        #expect(levels.truePeak >= levels.samplePeak - 0.01 && levels.truePeak < -19.5)
        let expectedRMS = 10 * log10(0.5 * pow(10, -20.0 / 10) * 10 / 12.7)
        #expect(abs(levels.rms - expectedRMS) < 0.05, "\(levels.rms) vs \(expectedRMS)")
        #expect(abs(levels.headSilenceMs - 700) <= 10 && abs(levels.tailSilenceMs - 2000) <= 10, "\(levels)")
        #expect(levels.noiseFloor == -.infinity)
        #expect(abs(levels.durationMs - 12_700) <= 1)

        // Quiet of ±40 (uniform: RMS 40/√3 ≈ 23, −63 dBFS) is the noise floor.
        let noisy = try AudioLevelMeter(sampleRate: 22050)
        noisy.add(Self.tone(peak: -20, seconds: 3, head: 1000, tail: 1000, noise: 40)[...])
        let noise = noisy.finish().noiseFloor
        #expect(abs(noise - 20 * log10(40 / 3.0.squareRoot() / 32768)) < 0.5, "\(noise)")

        // The same file through ffmpeg's ebur128 filter, as the brief measured the sample with.
        let folder = try TemporaryDirectory()
        let wav = folder.file("tone.wav")
        try Data(try SoundFile.encode(samples, sampleRate: 22050, format: .wav)).write(to: wav)
        let ffmpeg = try FFmpegEncoder.locate()
        let result = try Self.run(
            ffmpeg.path, ["-hide_banner", "-nostats", "-i", wav.path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = result.errors.components(separatedBy: "Summary:").last ?? ""
        let integrated = summary.split(separator: "\n").first { $0.contains("I:") }.flatMap { line in
            Double(line.split(separator: " ").dropFirst().first ?? "")
        }
        #expect(integrated.map { abs($0 - levels.integratedLoudness) < 0.15 } == true, "ffmpeg: \(summary.prefix(400))")
    }

    @Test func masteringMakesChaptersConformAndTheAudiobookFilesCarryTheBook() throws {
        let project = try TestProject(
            recipe: Fixtures.recipe(
                extra: """
                    "title": "Pride and Prejudice", "author": "Jane Austen", "cover": "cover.png", "mastering": "acx",
                      "credits": { "opening": "Pride and Prejudice, by Jane Austen. Narrated by Forge.", "closing": "The end of Pride and Prejudice." },
                      "exports": ["audio", "json", "m4b", "acx"]
                    """))
        let ffmpeg = try FFmpegEncoder.locate()
        #expect(
            try Self.run(
                ffmpeg.path,
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=64x64", "-frames:v", "1",
                    project.directory.file("cover.png").path,
                ]
            ).status == 0)
        let built = try project.build()
        try #require(built.status == 0, "\(built.errors)")
        let keys = Set(try project.manifest().items().compactMap(\.audioKey))

        // As synthesized, the chapters fail ACX (peaks near full scale, no head room tone) …
        let raw = try project.forge(["check", "out", "--mastering", "none", "--profile", "acx", "--json"])
        #expect(raw.status == 1, "\(raw.text)")
        // … as the build exports them (its recipe's mastering, the default), they pass.
        let asExported = try project.forge(["check", "out", "--profile", "acx"])
        #expect(asExported.status == 0, "\(asExported.text)")
        // … mastered, every exported file passes ACX and sits at −18 ±1 LUFS.
        let exports = project.output.appendingPathComponent("exports")
        let acxFiles = try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("acx").path)
            .sorted()
        #expect(
            acxFiles == ["00-opening-credits.mp3", "01-chapter-1.mp3", "02-chapter-2.mp3", "03-closing-credits.mp3"],
            "\(acxFiles)")
        let acxPaths = acxFiles.map { "out/exports/acx/" + $0 }
        let acx = try project.forge(["check", "--profile", "acx", "--json"] + acxPaths)
        #expect(acx.status == 0, "\(acx.text)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(acx.text.utf8)) as? [String: Any])
        for chapter in report["chapters"] as? [[String: Any]] ?? [] {
            let levels = chapter["levels"] as? [String: Any] ?? [:]
            let lufs = levels["integratedLUFS"] as? Double ?? 0
            #expect((-19.0 ... -17.0).contains(lufs), "\(chapter)")
        }
        let wavs = try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("audio").path)
            .sorted().map { "out/exports/audio/" + $0 }
        #expect(try project.forge(["check", "--profile", "acx"] + wavs).status == 0)
        #expect(try project.forge(["check", "out", "--mastering", "acx", "--profile", "acx"]).status == 0)
        for file in acxFiles {
            let stream =
                (try Self.probe(exports.appendingPathComponent("acx/" + file))["streams"] as? [[String: Any]])?.first
                ?? [:]
            #expect(
                stream["sample_rate"] as? String == "44100" && stream["channels"] as? Int == 1
                    && stream["bit_rate"] as? String == "192000", "\(stream)")
        }

        // Timings follow the mastered audio: the head room tone moves every word.
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: exports.appendingPathComponent("json/chapter-001.json"))) as? [String: Any])
        let firstItem = try #require((json["items"] as? [[String: Any]])?.first)
        #expect((firstItem["startMs"] as? Int ?? 0) >= 745, "\(firstItem["startMs"] ?? "-")")

        // The M4B: chapters at the timeline's starts, titled, between the credits; the book's tags;
        // the cover; its length.
        let m4b = exports.appendingPathComponent("m4b/pride-and-prejudice.m4b")
        let info = try Self.probe(m4b)
        let marks = info["chapters"] as? [[String: Any]] ?? []
        let manifestChapters = try project.manifest().chapters()
        #expect(marks.count == manifestChapters.count + 2 && marks.count == 4)
        let markTitles = marks.map { ($0["tags"] as? [String: Any])?["title"] as? String }
        #expect(markTitles.first == "Opening Credits" && markTitles.last == "Closing Credits", "\(markTitles)")
        let chapters = Array(marks.dropFirst().dropLast())
        var settings = ExportSettings()
        settings.mastering = .acx
        let timelines = try TimelineBuilder(
            store: ObjectStore(root: project.output), manifest: try project.manifest(), settings: settings
        ).timelines()
        var start = Double(marks.first?["end_time"] as? String ?? "") ?? -1
        let frame = 1024.0 / 22050
        for (chapter, timeline) in zip(chapters, timelines) {
            let probed = Double(chapter["start_time"] as? String ?? "") ?? -1
            #expect(abs(probed - start) <= frame, "chapter starts at \(probed), the timeline at \(start)")
            #expect((chapter["tags"] as? [String: Any])?["title"] as? String == timeline.chapter.title)
            start += Double(timeline.totalSamples) / Double(timeline.sampleRate)
        }
        let format = info["format"] as? [String: Any] ?? [:]
        let closing = Double(marks.last?["start_time"] as? String ?? "") ?? -1
        #expect(abs(closing - start) <= frame, "the closing credits start at \(closing), the book ends at \(start)")
        #expect(
            abs(
                (Double(format["duration"] as? String ?? "") ?? 0)
                    - (Double(marks.last?["end_time"] as? String ?? "") ?? -1))
                <= frame, "duration \(format["duration"] ?? "-")")
        let tags = format["tags"] as? [String: Any] ?? [:]
        #expect(
            tags["title"] as? String == "Pride and Prejudice" && tags["artist"] as? String == "Jane Austen", "\(tags)")
        let streams = info["streams"] as? [[String: Any]] ?? []
        #expect(
            streams.contains { ($0["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1 }, "no cover picture"
        )
        #expect(
            streams.contains {
                $0["codec_name"] as? String == "aac" && ($0["tags"] as? [String: Any])?["language"] as? String == "eng"
            })

        // Mastering lives in exports only: objects and their keys are as synthesized.
        #expect(Set(try project.manifest().items().compactMap(\.audioKey)) == keys)
        let again = try project.build()
        #expect(again.summary?["nothingToDo"] as? Bool == true, "\(again.text.suffix(300))")

        // The credits were spoken by a worker into the store, as items are (no item refers to
        // them), and an export from the command line finds them there instead of speaking again.
        func credits() throws -> [StoredObject] {
            try project.manifest().allObjects().filter { $0.role == .audio && !keys.contains($0.key) }
        }
        let spoken = try credits()
        #expect(
            spoken.count == 2
                && spoken.allSatisfy {
                    FileManager.default.fileExists(atPath: project.output.appendingPathComponent($0.path).path)
                }, "\(spoken)")
        let before = try Data(contentsOf: exports.appendingPathComponent("acx/00-opening-credits.mp3"))
        // (The export takes the credits, and their voice, from the build's recorded settings.)
        let exported = try project.forge(["export", "out", "--format", "acx", "--force"])
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(try credits() == spoken)
        #expect(try Data(contentsOf: exports.appendingPathComponent("acx/00-opening-credits.mp3")) == before)
    }

    /// The M4B is the chapters' AAC encodings joined (each chapter encoded once, on its own): it
    /// plays the chapters' audio sample for sample — the same length, no gap, no lag, no click at a
    /// join, every chapter mark on its chapter's first sample — and after an edit only the edited
    /// chapter is encoded again, its old encoding removed.
    @Test func anM4BJoinsChaptersEncodedApartAndAnEditEncodesOnlyItsChapter() throws {
        let book =
            Fixtures.shortBook
            + "\n\nChapter 3\n\n\nMr. Bingley was good-looking and gentlemanlike; he had a pleasant countenance.\n"
        let project = try TestProject(
            recipe: Fixtures.recipe(extra: #""title": "Joined", "credits": false, "exports": ["audio", "m4b", "epub"]"#)
        )
        try project.write(book: book)
        // The recipe's exports report each chapter of each phase with the build's events.
        let build = try project.build()
        try #require(build.status == 0, "\(build.errors)")
        for phase in ["encode", "audio", "epub", "m4b"] {
            let steps = build.events("exporting").filter { $0["phase"] as? String == phase }
            // The M4B joins stored encodings in a moment: it reports when joined. The phases that put
            // audio out report inside chapters too: every chapter's end is among their steps, in order.
            let finished = steps.compactMap { $0["finished"] as? Int }
            let ends = phase == "m4b" ? [3] : [1, 2, 3]
            #expect(
                Array(Set(finished)).sorted() == (phase == "m4b" || phase == "epub" ? ends : [0] + ends)
                    && finished == finished.sorted()
                    && steps.allSatisfy { $0["toFinish"] as? Int == 3 }, "\(phase): \(steps)")
        }
        let exports = project.output.appendingPathComponent("exports")
        func chapterSamples() throws -> [[Int16]] {
            try (1...3).map {
                try SoundFile.decode(fileAt: exports.appendingPathComponent("audio/chapter-00\($0).wav")).samples
            }
        }
        let chapters = try chapterSamples()
        #expect(
            chapters.allSatisfy { $0.count % 1024 == 0 }, "chapters last whole AAC frames: \(chapters.map(\.count))")
        let m4b = exports.appendingPathComponent("m4b/joined.m4b")
        let decoded = try Self.decodedByFFmpeg(m4b, scratch: project.directory.file("m4b.raw"))
        let source = chapters.flatMap { $0 }
        #expect(
            decoded.count == source.count,
            "the M4B decodes to \(decoded.count) samples, the chapters have \(source.count)")
        func snr(_ range: Range<Int>) -> Double { Self.snr(source, decoded, over: range) }
        #expect(snr(0..<source.count) > 20, "whole book: \(snr(0..<source.count)) dB")
        var start = 0
        let marks = (try Self.probe(m4b)["chapters"] as? [[String: Any]] ?? []).map {
            Double($0["start_time"] as? String ?? "") ?? -1
        }
        #expect(marks.count == 3)
        for (index, chapter) in chapters.enumerated() {
            if index > 0 {
                let join = snr((start - 4096)..<(start + 4096))
                #expect(join > 20, "the join before chapter \(index + 1): \(join) dB")
            }
            if index < marks.count {
                #expect(
                    abs(marks[index] - Double(start) / 22050) <= 0.001,
                    "chapter \(index + 1) marked at \(marks[index]) s, starts at \(Double(start) / 22050) s")
            }
            start += chapter.count
        }

        // Each chapter encoded once; the EPUB carries the same encodings (AAC in MP4).
        let before = try project.manifest().encodedObjects()
        #expect(before.count == 3)
        let epub = try #require(
            try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("epub").path).first)
        #expect(
            try Archive(url: exports.appendingPathComponent("epub/" + epub), accessMode: .read)[
                "OEBPS/audio/chapter-002.m4a"] != nil)

        // An edit in chapter 2: only chapter 2 is encoded again; its old encoding is gone.
        try project.write(book: book.replacingOccurrences(of: "for Heaven’s sake!", with: "for Heaven’s sake, Kitty!"))
        try #require(try project.build().status == 0)
        let after = try project.manifest().encodedObjects()
        let kept = Set(before.map(\.key)).intersection(after.map(\.key))
        #expect(after.count == 3 && kept.count == 2, "\(kept.count) of 3 encodings kept, \(after.count) now")
        for gone in before where !kept.contains(gone.key) {
            #expect(
                !FileManager.default.fileExists(atPath: project.output.appendingPathComponent(gone.path).path),
                "the old encoding \(gone.path) is still there")
        }
        #expect(try chapterSamples()[0] == chapters[0] && (try chapterSamples())[2] == chapters[2])
    }

    /// A recipe that says nothing of credits gets them in the M4B and the ACX set: the title and
    /// author its source's Gutenberg header gives, "Opening Credits" and "Closing Credits"
    /// chapters around the book's, each encoded alone and joined without a click; the book's
    /// chapters play as exported, their encodings the ones an export without credits makes.
    /// `"credits": false` and `forge export --no-credits` leave them out.
    @Test func aRecipeHasCreditsInTheM4BAndTheACXSetByDefault() throws {
        let header = """
            The Project Gutenberg EBook of Pride and Prejudice, by Jane Austen

            Title: Pride and Prejudice

            Author: Jane Austen

            *** START OF THIS PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***


            """
        let project = try TestProject(recipe: Fixtures.recipe(extra: #""exports": ["audio", "m4b", "acx"]"#))
        try project.write(book: header + Fixtures.shortBook + "\n\n*** END OF THIS PROJECT GUTENBERG EBOOK ***\n")
        let build = try project.build()
        try #require(build.status == 0, "\(build.errors)")
        let exports = project.output.appendingPathComponent("exports")
        let m4b = exports.appendingPathComponent("m4b/pride-and-prejudice.m4b")
        let info = try Self.probe(m4b)
        let tags = (info["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        #expect(tags["title"] as? String == "Pride and Prejudice" && tags["artist"] as? String == "Jane Austen")
        let marks = info["chapters"] as? [[String: Any]] ?? []
        let titles = marks.map { ($0["tags"] as? [String: Any])?["title"] as? String ?? "" }
        #expect(titles == ["Opening Credits", "Chapter 1", "Chapter 2", "Closing Credits"], "\(titles)")
        let acx = try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("acx").path)
        #expect(
            acx.sorted() == [
                "00-opening-credits.mp3", "01-chapter-1.mp3", "02-chapter-2.mp3", "03-closing-credits.mp3",
            ])

        // The book's chapters play as exported between the credits, which are speech of a few seconds.
        let decoded = try Self.decodedByFFmpeg(m4b, scratch: project.directory.file("m4b.raw"))
        let chapters = try (1...2).map {
            try SoundFile.decode(fileAt: exports.appendingPathComponent("audio/chapter-00\($0).wav")).samples
        }
        // Marks are in milliseconds; chapters and credits last whole AAC frames.
        let starts = marks.map {
            1024 * Int(((Double($0["start_time"] as? String ?? "") ?? -1) * 22050 / 1024).rounded())
        }
        let opening = starts[1]
        let closing = decoded.count - starts[3]
        #expect(opening % 1024 == 0 && (44100...441000).contains(opening), "opening credit: \(opening) samples")
        #expect((22050...441000).contains(closing), "closing credit: \(closing) samples")
        #expect(decoded.count == opening + chapters[0].count + chapters[1].count + closing)
        let source = [Int16](repeating: 0, count: opening) + chapters.joined()
        let book = opening..<(opening + chapters[0].count + chapters[1].count)
        #expect(Self.snr(source, decoded, over: book) > 20, "book: \(Self.snr(source, decoded, over: book)) dB")
        // At the credit's join: its tail is silence, the chapter's first words play as exported.
        let join = Self.snr(source, decoded, over: opening..<(opening + 4096))
        #expect(join > 20, "the join after the opening credit: \(join) dB")
        let credit = decoded[0..<opening].map { abs(Int($0)) }.max() ?? 0
        #expect(credit > 3000, "the opening credit is silent (peak \(credit))")

        // The book's encodings are the ones an export without credits makes; the credits' are kept beside them.
        let encoded = Set(try project.manifest().encodedObjects().map(\.key))
        #expect(encoded.count == 4)
        let without = try project.forge(["export", "out", "--format", "m4b", "acx", "--no-credits"])
        #expect(without.status == 0, "\(without.errors)")
        #expect(Set(try project.manifest().encodedObjects().map(\.key)).isSubset(of: encoded))
        #expect(try Self.probe(m4b)["chapters"].map { ($0 as? [Any])?.count } == 2)
        #expect(
            !FileManager.default.fileExists(atPath: exports.appendingPathComponent("acx/00-opening-credits.mp3").path))

        // A recipe that says no has none.
        let plain = try TestProject(
            recipe: Fixtures.recipe(extra: #""title": "Plain", "credits": false, "exports": ["m4b"]"#))
        try #require(try plain.build().status == 0)
        let plainMarks = try Self.probe(plain.output.appendingPathComponent("exports/m4b/plain.m4b"))["chapters"]
        #expect((plainMarks as? [Any])?.count == 2)
    }

    /// A chapter longer than a piece (3 s here, half an hour in a release build) is encoded in pieces,
    /// each cut at a frame edge in a pause, and the M4B and the EPUB's chapter file join them as
    /// chapters are joined: the M4B decodes to every chapter's samples, as close to them as one
    /// encode, with nothing but silence at the joins.
    @Test func aLongChapterIsEncodedInPiecesThatJoinAsOne() throws {
        let project = try TestProject(
            recipe: Fixtures.recipe(extra: #""title": "Pieces", "credits": false, "exports": ["audio", "m4b", "epub"]"#)
        )
        let build = try project.build(environment: ["FORGE_PIECE_SECONDS": "3"])
        try #require(build.status == 0, "\(build.errors)")
        let manifest = try project.manifest()
        let settings = ExportSettings(formats: [.audio, .m4b, .epub], title: "Pieces")
        let timelines = try TimelineBuilder(
            store: ObjectStore(root: project.output), manifest: manifest, settings: settings
        ).timelines()
        let cuts: [[Int]] = timelines.map { $0.pieceCuts(limitMs: 3000) }
        let lengths: [Int] = timelines.map(\.durationMs)
        #expect(cuts.allSatisfy { !$0.isEmpty }, "every chapter is longer than 3 s: \(lengths) ms")
        let pieces = cuts.map { $0.count + 1 }.reduce(0, +)
        #expect(try manifest.encodedObjects().count == pieces, "one encoding per piece")

        let exports = project.output.appendingPathComponent("exports")
        let chapters: [[Int16]] = try (1...timelines.count).map { index in
            try SoundFile.decode(fileAt: exports.appendingPathComponent("audio/chapter-00\(index).wav")).samples
        }
        let decoded = try Self.decodedByFFmpeg(
            exports.appendingPathComponent("m4b/pieces.m4b"), scratch: project.directory.file("m4b.raw"))
        let source = chapters.flatMap { $0 }
        #expect(
            decoded.count == source.count,
            "the M4B decodes to \(decoded.count) samples, the chapters have \(source.count)")
        let whole = Self.snr(source, decoded, over: 0..<source.count)
        #expect(whole > 20, "whole book: \(whole) dB")
        var start = 0
        for (chapter, chapterCuts) in zip(chapters, cuts) {
            for cut in chapterCuts {
                let around = (cut - ChapterEncoder.contextSamples)..<(cut + ChapterEncoder.contextSamples)
                #expect(chapter[around].allSatisfy { $0 == 0 }, "the cut at \(cut) is in a pause")
                let worst = around.map { abs(Int(decoded[start + $0])) }.max() ?? 0
                #expect(worst < 64, "the join at \(cut) decodes to \(worst), not silence")
            }
            start += chapter.count
        }
        // The EPUB's chapter file joins the same pieces: its audio lasts the chapter's samples.
        let epub = try #require(
            try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("epub").path).first)
        let archive = try Archive(url: exports.appendingPathComponent("epub/" + epub), accessMode: .read)
        let entry = try #require(archive["OEBPS/audio/chapter-001.m4a"])
        var m4a = Data()
        _ = try archive.extract(entry) { m4a.append($0) }
        let chapterFile = project.directory.file("chapter-001.m4a")
        try m4a.write(to: chapterFile)
        let chapterDecoded = try Self.decodedByFFmpeg(chapterFile, scratch: project.directory.file("chapter-001.raw"))
        #expect(
            chapterDecoded.count == chapters[0].count && chapterDecoded == Array(decoded[0..<chapters[0].count]),
            "the EPUB's chapter is the M4B's")

        // An edit in the long chapter's last paragraph encodes that piece again, not the chapter.
        try project.write(
            book: Fixtures.shortBook.replacingOccurrences(of: "for Heaven’s sake!", with: "for Heaven’s sake, Kitty!"))
        let edited = try project.build(environment: ["FORGE_PIECE_SECONDS": "3"])
        try #require(edited.status == 0, "\(edited.errors)")
        let made = edited.summary?["encodedChapters"] as? Int ?? -1
        #expect(
            made >= 1 && made < cuts[1].count + 1, "\(made) of chapter 2's \(cuts[1].count + 1) pieces encoded again")
    }

    @Test func checkKeepsLevelsAndMeasuresOnlyChaptersThatChanged() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        func measured(_ result: ForgeResult) -> Int? {
            (try? JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])?["measuredChapters"]
                as? Int
        }
        let first = try project.forge(["check", "out", "--profile", "ebu-r128", "--json"])
        #expect(measured(first) == 2, "\(first.text) \(first.errors)")
        let second = try project.forge(["check", "out", "--profile", "ebu-r128", "--json"])
        #expect(measured(second) == 0)
        #expect(first.text.contains("\"chapters\"") && second.status == first.status)
        try project.write(
            book: Fixtures.shortBook.replacingOccurrences(
                of: "Mr. Bennet replied that he had not.", with: "Mr. Bennet replied that he had not heard."))
        #expect(try project.build().status == 0)
        #expect(measured(try project.forge(["check", "out", "--profile", "ebu-r128", "--json"])) == 1)
        // Another mastering is measured on its own, and does not evict the first.
        #expect(
            measured(try project.forge(["check", "out", "--mastering", "podcast", "--profile", "podcast", "--json"]))
                == 2)
        #expect(measured(try project.forge(["check", "out", "--profile", "ebu-r128", "--json"])) == 0)
        #expect(try project.forge(["check", "out", "--profile", "loud"]).status == 2)
    }

    @Test func anM4BOfAnEPUBCarriesTheBooksOwnCover() throws {
        let project = try TestProject(
            recipe: #"{ "version": 1, "sources": ["book.epub"], "output": { "directory": "out" } }"#)
        let png = project.directory.file("cover.png")
        #expect(
            try Self.run(
                try FFmpegEncoder.locate().path,
                ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=48x48", "-frames:v", "1", png.path]
            ).status == 0)
        var options = BookFormats.EPUBOptions()
        options.coverPNG = try Data(contentsOf: png)
        try BookFormats(plainText: Fixtures.shortBook).writeEPUB(
            to: project.directory.file("book.epub"), options: options)
        #expect(try project.build().status == 0)
        #expect(try project.forge(["export", "out", "--format", "m4b", "--title", "Short"]).status == 0)
        let streams =
            try Self.probe(project.output.appendingPathComponent("exports/m4b/short.m4b"))["streams"]
            as? [[String: Any]] ?? []
        let picture = streams.first { ($0["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1 }
        #expect(picture?["codec_name"] as? String == "png" && picture?["width"] as? Int == 48, "\(streams)")
        #expect(try OwnedDirectory(root: project.output).leftovers(remove: false).isEmpty)
        #expect(
            ((try? FileManager.default.contentsOfDirectory(
                atPath: project.output.appendingPathComponent("exports/m4b").path)) ?? []) == ["short.m4b"])
    }

    /// The cover is read once per export and its bytes are among the export's inputs: a new image
    /// at the same path makes the M4B and the EPUB again (they were "up to date" when only its path counted).
    @Test func aNewCoverImageAtTheSamePathMakesNewExports() throws {
        let project = try TestProject(
            recipe: Fixtures.recipe(extra: #""title": "Short", "cover": "cover.png", "exports": ["m4b", "epub"]"#))
        let png = project.directory.file("cover.png")
        func paint(_ color: String, size: Int) throws {
            #expect(
                try Self.run(
                    try FFmpegEncoder.locate().path,
                    [
                        "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):s=\(size)x\(size)", "-frames:v",
                        "1", png.path,
                    ]
                ).status == 0)
        }
        func pictureWidth() throws -> Int? {
            let streams =
                try Self.probe(project.output.appendingPathComponent("exports/m4b/short.m4b"))["streams"]
                as? [[String: Any]] ?? []
            return streams.first { ($0["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1 }?["width"]
                as? Int
        }
        func epubCover() throws -> Data {
            let archive = try Archive(
                url: project.output.appendingPathComponent("exports/epub/short.epub"), accessMode: .read)
            let entry = try #require(archive["OEBPS/images/cover.png"])
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            return data
        }
        try paint("red", size: 48)
        #expect(try project.build().status == 0)
        #expect(try pictureWidth() == 48)
        #expect(try epubCover() == Data(contentsOf: png))

        try paint("blue", size: 64)
        let export = try project.forge(["export", "out", "--format", "m4b", "epub"])
        #expect(export.status == 0 && !export.text.contains("Up to date"), "\(export.text)")
        #expect(try pictureWidth() == 64)
        #expect(try epubCover() == Data(contentsOf: png))
        // Unchanged, it is up to date again.
        #expect(try project.forge(["export", "out", "--format", "m4b", "epub"]).text.contains("Up to date"))
    }

    /// Two parts whose chapters are numbered from I again, and an epilogue with chapters of its own:
    /// the M4B's chapter titles (by ffprobe) are unique and name their part.
    @Test func anM4BOfABookInPartsHasUniqueChapterTitles() throws {
        let book = """
            BOOK ONE: 1805

            CHAPTER I

            Well, Prince, so Genoa and Lucca are now just family estates.

            CHAPTER II

            Anna Pavlovna's drawing room was gradually filling.

            BOOK TWO: 1805

            CHAPTER I

            In October, 1805, a Russian army was occupying the villages.

            FIRST EPILOGUE: 1813 - 20

            CHAPTER I

            Seven years had passed.
            """
        let project = try TestProject(book: book, recipe: Fixtures.recipe(voice: "en-us+klatt"))
        #expect(try project.build().status == 0)
        #expect(try project.forge(["export", "out", "--format", "m4b", "json", "--title", "Parts"]).status == 0)
        let chapters =
            try Self.probe(project.output.appendingPathComponent("exports/m4b/parts.m4b"))["chapters"]
            as? [[String: Any]] ?? []
        let titles = chapters.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String }
        #expect(
            titles == [
                "Opening Credits", "Book One: 1805 — CHAPTER I", "Book One: 1805 — CHAPTER II",
                "Book Two: 1805 — CHAPTER I", "First Epilogue: 1813 - 20 — CHAPTER I", "Closing Credits",
            ], "\(chapters)")
        // The JSON export carries each chapter's part as a field of its own (a book without parts has none).
        let parts = try (1...4).map { number in
            let data = try Data(
                contentsOf: project.output.appendingPathComponent("exports/json/chapter-00\(number).json"))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["part"] as? String
        }
        #expect(parts == ["Book One: 1805", "Book One: 1805", "Book Two: 1805", "First Epilogue: 1813 - 20"])
    }

    /// The chapter entries of Nero's `chpl` box in an MP4 file (`moov` › `udta` › `chpl`: version,
    /// flags, a reserved word, a one-byte count, then per chapter an 8-byte start and a titled string),
    /// or nil when the file has none.
    static func neroChapters(_ data: Data) -> [String]? {
        let bytes = [UInt8](data)
        func boxes(_ range: Range<Int>) -> [(type: String, content: Range<Int>)] {
            var found: [(String, Range<Int>)] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                var header = 8
                if size == 1 {
                    size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
                    header = 16
                }
                guard size >= header, offset + size <= range.upperBound else { break }
                found.append((type, (offset + header)..<(offset + size)))
                offset += size
            }
            return found
        }
        guard let moov = boxes(0..<bytes.count).first(where: { $0.type == "moov" }),
            let udta = boxes(moov.content).first(where: { $0.type == "udta" }),
            let chpl = boxes(udta.content).first(where: { $0.type == "chpl" })
        else { return nil }
        var offset = chpl.content.lowerBound + 8
        let count = Int(bytes[offset])
        offset += 1
        var titles: [String] = []
        for _ in 0..<count {
            let length = Int(bytes[offset + 8])
            titles.append(String(decoding: bytes[(offset + 9)..<(offset + 9 + length)], as: UTF8.self))
            offset += 9 + length
        }
        return titles
    }

    /// An M4B of any number of chapters has all of them in every chapter list it carries: the
    /// QuickTime text track always; Nero's `chpl`, whose count is one byte, up to 255 chapters and
    /// not at all beyond (players that read it would lose the rest).
    @Test(.enabled(if: AudiobookTests.ffprobe != nil, "ffprobe is not installed"))
    func anM4BOfMoreThan255ChaptersListsThemAllInEveryList() throws {
        let directory = try TemporaryDirectory("chapters")
        let encoded = directory.file("chapter.aac")
        let ffmpeg = try FFmpegEncoder.locate()
        let encode = try Self.run(
            ffmpeg.path,
            [
                "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=22050:duration=0.3",
                "-ac", "1", "-c:a", "aac", "-b:a", "64k", "-f", "adts", encoded.path,
            ])
        #expect(encode.status == 0, "\(encode.errors)")
        let frames = try #require(ADTSFrames.frames([UInt8](Data(contentsOf: encoded)))).count
        for count in [255, 300] {
            let chapters = (0..<count).map { index in
                MP4AudioFile.Chapter(
                    path: "chapter.aac", skip: index == 0 ? 0 : 1, title: "Chapter \(index + 1)",
                    samples: (frames - 1) * 1024)
            }
            let book = directory.file("book-\(count).m4b")
            try #require(FileManager.default.createFile(atPath: book.path, contents: nil))
            let handle = try FileHandle(forWritingTo: book)
            let descriptor = dup(handle.fileDescriptor)
            try handle.close()
            try MP4AudioFile(store: ObjectStore(root: directory.url), sampleRate: 22050, language: "eng")
                .write(chapters, to: descriptor, label: book.path, cancellation: nil)
            let probed = try Self.probe(book)["chapters"] as? [[String: Any]] ?? []
            #expect(probed.count == count)
            #expect(probed.last.flatMap { ($0["tags"] as? [String: Any])?["title"] as? String } == "Chapter \(count)")
            let starts = probed.compactMap { ($0["start_time"] as? String).flatMap(Double.init) }
            #expect(
                starts.count == count && zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }, "chapter starts go up")
            let nero = Self.neroChapters(try Data(contentsOf: book))
            if count <= 255 {
                #expect(nero == chapters.map(\.title), "chpl lists every chapter")
            } else {
                #expect(nero == nil, "no chpl that would hold only 255 of \(count) chapters")
            }
        }
    }

    @Test func withoutFFmpegTheAudiobookExportsSayWhatToInstall() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        let result = try project.forge(
            ["export", "out", "--format", "m4b"], environment: ["FORGE_FFMPEG": "/nonexistent/ffmpeg"])
        #expect(result.status == 3)
        #expect(result.errors.contains("apt-get install ffmpeg"), "\(result.errors)")
        #expect(
            (try? FileManager.default.contentsOfDirectory(
                atPath: project.output.appendingPathComponent("exports/m4b").path)) ?? [] == [])
    }
}
