import Foundation
import Testing
import ZIPFoundation

@testable import Forge

/// `forge sync`: an ebook and its audiobook as a reader has them — an EPUB 3 and a recording in two
/// MP3 tracks cut mid-chapter, with a spoken intro that is not in the book — become the reader's
/// own EPUB with media overlays over the recording.
@Suite("Sync an EPUB and its audiobook")
struct SyncTests {
    static func ffmpeg(_ arguments: [String], in directory: URL) throws {
        try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments, in: directory)
    }

    /// Reads the text file `text` aloud with espeak-ng into the WAV `wav`.
    static func espeak(voice: String, wordsPerMinute: Int, text: String, to wav: String, in directory: URL) throws {
        try run("espeak-ng", ["-v", voice, "-s", String(wordsPerMinute), "-f", text, "-w", wav], in: directory)
    }

    static func run(_ tool: String, _ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments)")
    }

    static func entries(_ url: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for entry in try Archive(url: url, accessMode: .read) {
            var data = Data()
            _ = try Archive(url: url, accessMode: .read).extract(entry) { data.append($0) }
            found[entry.path] = data
        }
        return found
    }

    /// Where each sentence of a synced EPUB starts playing, in the whole recording: its first
    /// clip's start in its file plus where that file starts.
    static func clipStarts(_ entries: [String: Data], trackStartMs: [String: Int]) -> [String: Int] {
        var starts: [String: Int] = [:]
        for (path, data) in entries where path.hasSuffix(".smil") {
            for match in String(decoding: data, as: UTF8.self).matches(
                of: /#(forge-s-[^"]+)"\/><audio src="[^"]*\/([^"\/]+)" clipBegin="(\d+):(\d+):([\d.]+)"/)
            {
                guard let offset = trackStartMs[String(match.2)], let hours = Int(match.3), let minutes = Int(match.4),
                    let seconds = Double(match.5)
                else { continue }
                // A sentence the tracks were cut in has a second clip, in the next track: it starts at its first.
                if starts[String(match.1)] == nil {
                    starts[String(match.1)] =
                        offset + (hours * 3_600 + minutes * 60) * 1_000 + Int((seconds * 1_000).rounded())
                }
            }
        }
        return starts
    }

    @Test func anEPUBAndTwoMP3TracksWithAnIntroBecomeTheReadersEPUBWithOverlays() throws {
        let project = try TestProject()
        let directory = project.directory.url
        let transcript = try String(contentsOf: NarrationMismatchTests.transcript, encoding: .utf8)
        try BookFormats(plainText: "Chapter 1\n\n" + transcript).writeEPUB(
            to: directory.appendingPathComponent("book.epub"))
        // A narrator's intro (another voice, not in the book), then the reading, cut into two tracks mid-paragraph.
        let intro = Process()
        intro.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        intro.arguments = [
            "espeak-ng", "-v", "en-us", "-w", directory.appendingPathComponent("intro.wav").path,
            "Welcome. You are listening to a volunteer reading, recorded last spring.",
        ]
        try intro.run()
        intro.waitUntilExit()
        try FileManager.default.copyItem(
            at: NarrationMismatchTests.recording, to: directory.appendingPathComponent("reading.flac"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("tracks"), withIntermediateDirectories: true)
        try Self.ffmpeg(
            [
                "-i", "intro.wav", "-i", "reading.flac", "-filter_complex",
                "[0:a]aresample=44100,aformat=channel_layouts=mono[a];[1:a]aresample=44100,aformat=channel_layouts=mono[b];[a][b]concat=n=2:v=0:a=1[out]",
                "-map", "[out]", "-c:a", "pcm_s16le", "whole.wav",
            ], in: directory)
        try Self.ffmpeg(
            ["-i", "whole.wav", "-t", "13.3", "-c:a", "libmp3lame", "-b:a", "64k", "tracks/Track 1.mp3"], in: directory)
        try Self.ffmpeg(
            ["-ss", "13.3", "-i", "whole.wav", "-c:a", "libmp3lame", "-b:a", "64k", "tracks/Track 10.mp3"],
            in: directory)

        let synced = try project.forge([
            "sync", "book.epub", "tracks", "-o", "synced", "--max-unmatched", "0.4", "--json",
        ])
        #expect(synced.status == 0, "\(synced.text) \(synced.errors)")
        let report = try #require(synced.events("narration").first, "\(synced.text) \(synced.errors)")
        // The join and the reading show their progress: a line per track joined, in order, then the reading's.
        #expect(synced.events("joining").map { $0["joined"] as? Int } == [1, 2])
        #expect(synced.events("joining").allSatisfy { $0["files"] as? Int == 2 })
        #expect(synced.events("reading").last?["fraction"] as? Double == 1)
        // Then the cut into the items' pieces and the EPUB's export show theirs.
        #expect(synced.events("cutting").last?["fraction"] as? Double == 1)
        #expect(synced.events("exporting").contains { $0["phase"] as? String == "epub" })
        // The joined recording is the tracks decoded one by one, end to end, sample for sample.
        for track in ["Track 1", "Track 10"] {
            try Self.ffmpeg(
                ["-i", "tracks/\(track).mp3", "-ac", "1", "-c:a", "pcm_s16le", "\(track).wav"], in: directory)
        }
        let joined = try SoundFile.decode(fileAt: project.directory.file("synced/recording/joined.flac"))
        let decoded = try ["Track 1", "Track 10"].map {
            try SoundFile.decode(fileAt: directory.appendingPathComponent("\($0).wav")).samples
        }
        #expect(joined.samples == decoded[0] + decoded[1])
        let lengths = try String(
            contentsOf: project.directory.file("synced/recording/joined.lengths"), encoding: .utf8)
        #expect(lengths == "44100\n\(decoded[0].count)\n\(decoded[1].count)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.directory.file("synced/recording").path)
                .filter { $0.hasPrefix(".") }.isEmpty)
        // The intro is reported as speech not in the text, at the start; the book's words were all heard.
        let spans = report["spans"] as? [[String: Any]] ?? []
        let introSpan = spans.first { $0["kind"] as? String == NarrationSpan.Kind.audioWithoutText.rawValue }
        // Most of it, not only its first words: the text is not stretched over the intro's end.
        let introMs = try SoundFile.decode(fileAt: directory.appendingPathComponent("intro.wav")).durationMs
        #expect(
            (introSpan?["startMs"] as? Int ?? 99_999) < 1_000 && (introSpan?["endMs"] as? Int ?? 0) > introMs * 8 / 10,
            "\(introMs) ms: \(spans)")
        // The book's copyright page and its heading are not read: done without audio, left out of the overlays.
        #expect(report["itemsNotInRecording"] as? Int == 2 && report["passed"] as? Bool == true, "\(report)")

        let edition = project.directory.file("synced/exports/epub/book.epub")
        let original = try Self.entries(directory.appendingPathComponent("book.epub"))
        let made = try Self.entries(edition)
        // Every original entry is kept; only documents given ids and the package differ.
        for (path, data) in original where !path.hasSuffix(".xhtml") && !path.hasSuffix(".opf") {
            #expect(made[path] == data, "\(path) kept byte for byte")
        }
        let package = String(decoding: try #require(made.first { $0.key.hasSuffix(".opf") }?.value), as: UTF8.self)
        #expect(package.contains("media-overlay=") && package.contains("<meta property=\"media:duration\">"))
        let smil = made.filter { $0.key.hasSuffix(".smil") }
        #expect(!smil.isEmpty)
        // Each overlay points at an element that exists in its document.
        for (_, data) in smil {
            let text = String(decoding: data, as: UTF8.self)
            for match in text.matches(of: /<text src="([^"#]+)#([^"]+)"/) {
                let document =
                    made.first { $0.key.hasSuffix(String(match.1.replacing("../", with: ""))) }.map {
                        String(decoding: $0.value, as: UTF8.self)
                    } ?? ""
                #expect(document.contains("id=\"\(match.2)\""), "\(match.1)#\(match.2)")
                // Sentence by sentence, in spans added to the reader's own paragraphs.
                #expect(match.2.hasPrefix("forge-s-") && document.contains("<span id=\"\(match.2)\">"), "\(match.2)")
            }
        }
        if let jar = EPUBCheck.current {
            for result in try EPUBCheckTests.check([edition], with: [jar]) {
                #expect(
                    result.status == 0 && result.report.contains("0 fatals / 0 errors / 0 warnings"), "\(result.report)"
                )
            }
        }

        // The same command again takes the alignment and the pieces from the store; pieces that
        // were lost are cut again from the recording, the same bytes at the same places.
        let pieces = try Manifest(directory: project.directory.file("synced"), create: false).allObjects()
            .filter { $0.role == .audio }.sorted { $0.path < $1.path }
        #expect(pieces.count >= 4)
        var lost: [String: Data] = [:]
        for piece in pieces.enumerated().filter({ $0.offset % 3 == 1 }).map(\.element) {
            let url = project.directory.file("synced/\(piece.path)")
            lost[piece.path] = try Data(contentsOf: url)
            try FileManager.default.removeItem(at: url)
        }
        let again = try project.forge([
            "sync", "book.epub", "tracks", "-o", "synced", "--max-unmatched", "0.4", "--json",
        ])
        #expect(again.status == 0, "\(again.text) \(again.errors)")
        #expect(again.events("narration").first?["reusedAlignment"] as? Bool == true)
        // The stored alignment keeps the recording's length, so the run again did not decode it to learn it.
        let document = try #require(
            try Manifest(directory: project.directory.file("synced"), create: false).allObjects()
                .first { $0.role == .alignment })
        let stored = try #require(
            AlignmentDocument.decode(try Data(contentsOf: project.directory.file("synced/\(document.path)"))))
        #expect(stored.recording?.frames == joined.samples.count && stored.recording?.missingFrames == 0)
        #expect(again.events("narration").first?["durationMs"] as? Int == report["durationMs"] as? Int)
        #expect(again.events("reading").isEmpty && again.events("cutting").last?["fraction"] as? Double == 1)
        for (path, data) in lost {
            #expect((try? Data(contentsOf: project.directory.file("synced/\(path)"))) == data, "\(path) cut again")
        }

        // The tracks are carried as they came (MP3 is an EPUB core media type): not re-encoded.
        let tracks = ["Track 1.mp3", "Track 10.mp3"].map {
            try? Data(contentsOf: directory.appendingPathComponent("tracks/\($0)"))
        }
        #expect(
            made["OEBPS/forge-audio/recording-001.mp3"] == tracks[0]
                && made["OEBPS/forge-audio/recording-002.mp3"] == tracks[1])
        #expect(!made.keys.contains { $0.hasSuffix(".m4a") }, "no chapter audio encoded: \(made.keys.sorted())")

        // An M4B of the same reading (AAC in MP4, one file): joined by ffmpeg, synced the same, and
        // carried as it came; each sentence plays from the same moment of the reading in both books.
        try Self.ffmpeg(["-i", "whole.wav", "-c:a", "aac", "-b:a", "64k", "book.m4b"], in: directory)
        let m4b = try project.forge(["sync", "book.epub", "book.m4b", "-o", "from-m4b", "--max-unmatched", "0.4"])
        #expect(m4b.status == 0, "\(m4b.text) \(m4b.errors)")
        let fromM4B = try Self.entries(project.directory.file("from-m4b/exports/epub/book.epub"))
        #expect(
            fromM4B["OEBPS/forge-audio/recording.m4a"]
                == (try Data(contentsOf: directory.appendingPathComponent("book.m4b"))))
        let fromTracks = Self.clipStarts(made, trackStartMs: ["recording-001.mp3": 0, "recording-002.mp3": 13_300])
        let fromBook = Self.clipStarts(fromM4B, trackStartMs: ["recording.m4a": 0])
        let shared = Set(fromTracks.keys).intersection(fromBook.keys)
        #expect(shared.count >= 5 && fromTracks.keys.contains { fromTracks[$0]! > 13_300 }, "\(fromTracks)")
        for sentence in shared {
            #expect(
                abs(fromTracks[sentence]! - fromBook[sentence]!) <= 120,
                "\(sentence): \(fromTracks[sentence]!) and \(fromBook[sentence]!) ms")
        }

        // A book behind DRM (its documents encrypted, META-INF/encryption.xml saying so) is refused
        // before anything is written; obfuscated fonts alone are not DRM.
        func withEncryption(_ algorithm: String, _ uri: String, to name: String) throws {
            let source = try Self.entries(directory.appendingPathComponent("book.epub"))
            let archive = try Archive(url: directory.appendingPathComponent(name), accessMode: .create)
            let encryption = """
                <?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">\
                <enc:EncryptedData><enc:EncryptionMethod Algorithm="\(algorithm)"/><enc:CipherData><enc:CipherReference URI="\(uri)"/></enc:CipherData></enc:EncryptedData></encryption>
                """
            for (path, data) in [("mimetype", source["mimetype"]!)]
                + source.filter({ $0.key != "mimetype" }).sorted(by: { $0.key < $1.key }) + [
                    ("META-INF/encryption.xml", Data(encryption.utf8))
                ]
            {
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none
                ) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }
        try withEncryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc", "OEBPS/text/chapter-1.xhtml", to: "drm.epub")
        let drm = try project.forge(["sync", "drm.epub", "tracks", "-o", "drm"])
        #expect(
            drm.status == 2 && drm.errors.contains("protected by DRM") && drm.errors.contains("chapter-1.xhtml"),
            "\(drm.errors)")
        #expect(!FileManager.default.fileExists(atPath: project.directory.file("drm").path))
        try withEncryption("http://www.idpf.org/2008/embedding", "OEBPS/fonts/serif.otf", to: "fonts.epub")
        // (With a FLAC, which no reading system need play: encoded once, as chapter audio.)
        let fonts = try project.forge(["sync", "fonts.epub", "reading.flac", "-o", "fonts", "--max-unmatched", "0.4"])
        #expect(fonts.status == 0, "\(fonts.errors)")
        #expect(
            try Self.entries(project.directory.file("fonts/exports/epub/fonts.epub")).keys.contains(
                "OEBPS/forge-audio/chapter-001.m4a"))

        // A recording of another book is refused (exit 1), and exports nothing.
        try project.directory.write(
            "other.txt",
            "Chapter 1\n\nCall me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, I thought I would sail about a little and see the watery part of the world.\n"
        )
        let wrong = try project.forge(["sync", "other.txt", "tracks", "-o", "wrong"])
        #expect(wrong.status == 1, "\(wrong.text) \(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: project.directory.file("wrong/exports/epub").path))
        // Bad input: a folder without audio, a file that is not audio: exit 2 with a message naming it.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try project.forge(["sync", "book.epub", "empty", "-o", "bad"])
        #expect(empty.status == 2 && empty.errors.contains("holds no audio files"), "\(empty.errors)")
        try project.directory.write("noise.mp3", "not audio at all")
        let noise = try project.forge(["sync", "book.epub", "noise.mp3", "-o", "bad"])
        #expect(noise.status == 2 && noise.errors.contains("noise.mp3"), "\(noise.errors)")
        // Among tracks that are: the join names it, and leaves nothing of its own behind.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("mixed"), withIntermediateDirectories: true)
        for index in [1, 2, 4] {
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent("tracks/Track 1.mp3"),
                to: directory.appendingPathComponent("mixed/\(index).mp3"))
        }
        try project.directory.write("mixed/3.mp3", "not audio at all")
        let mixed = try project.forge(["sync", "book.epub", "mixed", "-o", "mixed-out"])
        #expect(mixed.status == 2 && mixed.errors.contains("mixed/3.mp3"), "\(mixed.errors)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.directory.file("mixed-out/recording").path)
                .isEmpty)
        // A folder of 10,000 tracks: refused before any is decoded, within seconds.
        let many = directory.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
        for index in 1...10_000 {
            _ = FileManager.default.createFile(atPath: many.appendingPathComponent("\(index).mp3").path, contents: nil)
        }
        let started = Date()
        let tooMany = try project.forge(["sync", "book.epub", "many", "-o", "bad"])
        #expect(tooMany.status == 2 && tooMany.errors.contains("10000 audio files"), "\(tooMany.errors)")
        #expect(Date().timeIntervalSince(started) < 10)
        // A zip bomb (a chapter of 20 MiB of one byte, deflated about a thousand to one): refused
        // without being expanded, nothing written.
        let bomb = directory.appendingPathComponent("bomb.epub")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("book.epub"), to: bomb)
        let archive = try Archive(url: bomb, accessMode: .update)
        let chapter = try #require(archive.first { $0.path.hasSuffix(".xhtml") && !$0.path.hasSuffix("nav.xhtml") })
        let path = chapter.path
        try archive.remove(chapter)
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(20 << 20), compressionMethod: .deflate) {
            _, chunk in
            Data(repeating: UInt8(ascii: " "), count: chunk)
        }
        let bombed = try project.forge(["sync", "bomb.epub", "tracks", "-o", "bombed"])
        #expect(bombed.status == 2 && bombed.errors.contains("zip bomb"), "\(bombed.errors)")
        #expect(!FileManager.default.fileExists(atPath: project.directory.file("bombed").path))
    }

    /// espeak-ng (which a sync asks for the words the dictionary lacks) starts, forking its
    /// synthesis zygote, before the book is read: a zygote forked later keeps a copy of the
    /// book's memory for the whole run (75 MB resident beside a 600,000-word sync).
    @Test func espeakNGsZygoteIsForkedBeforeTheBookIsRead() throws {
        let project = try TestProject()
        let text = Fixtures.sampleText.split(separator: "\n", omittingEmptySubsequences: false).prefix(12)
            .joined(separator: "\n")
        try project.directory.write("book.txt", text)
        try project.directory.write("reading.txt", text)
        try Self.espeak(
            voice: "en-gb", wordsPerMinute: 160, text: "reading.txt", to: "reading.wav", in: project.directory.url)
        let sync = try project.forge(
            ["sync", "book.txt", "reading.wav", "-o", "synced", "--max-unmatched", "0.2"],
            environment: [ForgeLog.levelVariable: "debug"])
        let lines = sync.errors.split(separator: "\n")
        let forked = lines.indices.filter { lines[$0].contains("synthesis zygote is forked") }
        let reading = lines.firstIndex { $0.contains("reading the text") }
        #expect(sync.status == 0, "\(sync.text) \(sync.errors.suffix(2_000))")
        #expect(forked.count == 1 && reading != nil && forked[0] < reading!, "\(forked) \(String(describing: reading))")
    }

    /// Ctrl-C while a sync joins the tracks, and while it reads the joined recording for the
    /// recognizer, leaves none of those phases' temporary files (they start over): a 63-hour
    /// audiobook's are gigabytes.
    @Test func aStopWhileJoiningOrReadingLeavesNoTemporaryFiles() throws {
        let project = try TestProject()
        let words = Fixtures.sampleText.split(whereSeparator: \.isWhitespace).prefix(200).joined(separator: " ")
        try project.directory.write("book.txt", "Chapter 1\n\n" + words + "\n")
        let tracks = project.directory.file("tracks")
        try FileManager.default.createDirectory(at: tracks, withIntermediateDirectories: true)
        // 150 tracks of 30 s: a join of a few seconds, a recording of 75 minutes to read.
        try Self.ffmpeg(
            ["-f", "lavfi", "-i", "sine=frequency=220:duration=30", "-c:a", "libmp3lame", "-b:a", "32k", "track.mp3"],
            in: project.directory.url)
        for index in 1...150 {
            try FileManager.default.copyItem(
                at: project.directory.file("track.mp3"),
                to: tracks.appendingPathComponent(String(format: "%03d.mp3", index)))
        }
        let recording = project.directory.file("synced/recording")
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: recording.path).filter { $0.hasPrefix(".") }
        }
        for phase in ["joining", "reading"] {
            let sync = try project.start(["sync", "book.txt", "tracks", "-o", "synced", "--json"])
            let reached = sync.waitForLines(count: 1) { $0.contains(#""event":"\#(phase)""#) }
            // Mid-phase: after its first line, before the files it writes are whole.
            let before = try temporaries()
            sync.signal(SIGINT)
            let stopped = sync.wait()
            #expect(reached && stopped.status == 130, "\(phase): \(stopped.text) \(stopped.errors)")
            #expect(!before.isEmpty, "\(phase): stopped after its temporary files were gone")
            // Nothing forge started goes on writing them once it is gone (an ffmpeg decoding a track).
            Thread.sleep(forTimeInterval: 1)
            let after = try temporaries()
            #expect(after.isEmpty, "\(phase): \(after)")
            if phase == "joining" {
                // The next run joins the tracks whole, and is stopped while it reads them; what
                // a killed run left (a stop by SIGKILL removes nothing) is removed by it.
                #expect(!stopped.text.contains(#""joined":150"#))
                for name in [".recognizer.1.tmp", ".joined.1.tmp", ".part.1.7.wav"] {
                    try Data("left".utf8).write(to: recording.appendingPathComponent(name))
                }
            }
        }
    }

    /// Ctrl-C during a sync keeps the windows aligned so far (exit 130, saying how to resume); the
    /// same command again resumes there and finishes.
    /// The `fraction` of a JSON progress line.
    static func fraction(in line: String) -> Double? {
        guard let range = line.range(of: #""fraction":"#) else { return nil }
        return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    @Test func aStoppedSyncResumesWhereItStopped() throws {
        let project = try TestProject()
        let words = Fixtures.sampleText.split(whereSeparator: \.isWhitespace).prefix(480).joined(separator: " ")
        let text = "Chapter 1\n\n" + words + "\n"
        try project.directory.write("book.txt", text)
        try project.directory.write("reading.txt", words)
        try Self.espeak(
            voice: "en-gb", wordsPerMinute: 160, text: "reading.txt", to: "reading.wav", in: project.directory.url)
        try Self.ffmpeg(
            ["-i", "reading.wav", "-c:a", "libmp3lame", "-b:a", "64k", "reading.mp3"], in: project.directory.url)

        let sync = try project.start(["sync", "book.txt", "reading.mp3", "-o", "synced", "--json"])
        // After the first stretch the acoustic model examined (the first pass, Forge's own reading
        // warped onto the recording, comes before), before the end.
        let saved = sync.waitForLines(count: 1) { line in
            guard line.contains(#""event":"aligning""#), let fraction = Self.fraction(in: line) else { return false }
            return fraction > WarpedNarrationAligner.firstPassShare && fraction < 1
        }
        sync.signal(SIGINT)
        let stopped = sync.wait()
        #expect(
            saved && stopped.status == 130 && stopped.errors.contains("resume"), "\(stopped.text) \(stopped.errors)")
        let resumed = try project.forge(["sync", "book.txt", "reading.mp3", "-o", "synced", "--json"])
        let report = try #require(resumed.events("narration").first, "\(resumed.text) \(resumed.errors)")
        #expect(resumed.status == 0 && (report["resumedFromMs"] as? Int ?? 0) > 0, "\(report)")
        #expect(FileManager.default.fileExists(atPath: project.directory.file("synced/exports/epub/book.epub").path))
    }
}
