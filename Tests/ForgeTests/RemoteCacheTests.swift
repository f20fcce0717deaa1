import Foundation
import Testing

@testable import Forge

/// The remote cache against a real nginx (WebDAV PUT) on 127.0.0.1, with real forge processes.
@Suite(
    "Remote cache",
    .enabled(if: CacheServer.nginx != nil, "nginx is not installed: run scripts/install-deps.sh --tests"))
struct RemoteCacheTests {
    /// Everything a build promises about its items, comparable across output directories:
    /// id, audio key, status, duration, audio and events digests, and every word's timing.
    static func snapshot(_ output: URL) throws -> [String] {
        let manifest = try Manifest(directory: output, create: false)
        let items = try manifest.items()
        let objects = try manifest.objects(withKeys: items.flatMap { [$0.audioKey ?? "", $0.eventsKey ?? ""] })
        return try items.map { item in
            let timings = try manifest.timings(of: item.id).map { $0.map { "\($0.startMs)-\($0.endMs)" } ?? "nil" }
            return [
                item.id, item.audioKey ?? "", item.status.rawValue, String(item.durationMs ?? -1),
                objects[item.audioKey ?? ""]?.sha256 ?? "", objects[item.eventsKey ?? ""]?.sha256 ?? "",
                timings.joined(separator: ","),
            ].joined(separator: " ")
        }
    }

    static func int(_ summary: [String: Any]?, _ key: String) -> Int { summary?[key] as? Int ?? -1 }

    /// Every item came from the cache, but the few spot-checked ones, which were made here and
    /// matched the cache's digests (docs/remote-cache.md).
    static func allFromCache(_ summary: [String: Any]?, items: Int) -> Bool {
        let checked = int(summary, "spotChecked")
        return checked >= 1 && int(summary, "spotCheckMismatches") == 0 && int(summary, "synthesized") == checked
            && int(summary, "downloaded") + checked == items
    }

    /// The warnings a build reported (events with --json).
    static func warnings(_ result: ForgeResult) -> String {
        result.events("warning").compactMap { $0["message"] as? String }.joined(separator: "\n")
    }

    /// Every entry the server holds names blobs that are there, whole: nothing half-written is served.
    static func checkEntries(_ server: CacheServer, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let blobs = server.files("cas")
        for (name, file) in blobs {
            #expect(
                try ContentHash.sha256Hex(fileAt: file) == name, "blob \(name) is not what its name says",
                sourceLocation: sourceLocation)
        }
        let entries = server.files("ac")
        for (name, file) in entries {
            let entry = try JSONDecoder().decode(SpeechCacheEntry.self, from: Data(contentsOf: file))
            #expect(SpeechCacheEntry.actionKey(audioKey: entry.audioKey) == name, sourceLocation: sourceLocation)
            for blob in [entry.audio, entry.events] {
                #expect(blobs[blob.sha256] != nil, "entry \(name) names a missing blob", sourceLocation: sourceLocation)
            }
        }
        return entries.count
    }

    @Test func aColdBuildFillsTheCacheAndABuildIntoAnEmptyDirectoryDownloadsEverything() throws {
        let secret = "Bearer s3cret-\(UUID().uuidString.prefix(8))"
        let server = try CacheServer(authorization: secret)
        let project = try TestProject()
        let environment = [RemoteCacheSettings.headerVariable: "Authorization: \(secret)"]

        // Without the header the server refuses: one warning, a local build.
        let refused = try project.build(["--remote-cache", server.url, "-o", "refused"])
        #expect(refused.status == 0, "\(refused.errors)")
        #expect(refused.events("warning").count == 1)
        #expect(
            Self.warnings(refused).contains("HTTP 401")
                && Self.warnings(refused).contains(RemoteCacheSettings.headerVariable), "\(Self.warnings(refused))")

        let cold = try project.build(["--remote-cache", server.url], environment: environment)
        #expect(cold.status == 0, "\(cold.errors)")
        let items = Self.int(cold.summary, "items")
        #expect(items > 0 && Self.int(cold.summary, "synthesized") == items)
        #expect(Self.int(cold.summary, "uploaded") == items)
        #expect(try Self.checkEntries(server) == items)

        let warm = try project.build(["--remote-cache", server.url, "-o", "warm"], environment: environment)
        #expect(warm.status == 0, "\(warm.errors)")
        #expect(Self.allFromCache(warm.summary, items: items), "\(warm.summary ?? [:])")
        #expect(Self.int(warm.summary, "uploaded") == 0, "downloaded and matching spot-checked items are not sent back")
        #expect(warm.events("warning").isEmpty, "\(warm.errors)")
        let warmOutput = project.directory.file("warm")
        #expect(try Self.snapshot(warmOutput) == Self.snapshot(project.output))
        let status = try project.forge(["status", "warm", "--json"])
        let counts = try JSONSerialization.jsonObject(with: Data(status.text.utf8)) as? [String: Any]
        #expect(counts?["downloaded"] as? Int == items - Self.int(warm.summary, "spotChecked"))

        // A rebuild has nothing to do and asks the cache nothing.
        let before = server.requests().count
        let again = try project.build(["--remote-cache", server.url, "-o", "warm"], environment: environment)
        #expect(again.summary?["nothingToDo"] as? Bool == true)
        #expect(server.requests().count == before)

        // The header is sent, never shown or stored.
        for result in [refused, cold, warm] { #expect(!(result.text + result.errors).contains("s3cret")) }
        for output in [project.output, warmOutput] {
            let manifest = try Data(contentsOf: output.appendingPathComponent(Manifest.fileName))
            #expect(manifest.range(of: Data("s3cret".utf8)) == nil)
        }
    }

    /// A book of `chapters` short chapters (a paragraph or three each).
    static func chapteredBook(_ chapters: Int) -> String {
        let paragraphs = Fixtures.sampleText.components(separatedBy: "\n\n").filter {
            $0.count > 80 && !$0.hasPrefix("Chapter")
        }
        return (1...chapters).map { chapter in
            "Chapter \(chapter)\n\n" + paragraphs[(chapter * 3)..<(chapter * 3 + 2)].joined(separator: "\n\n")
        }.joined(separator: "\n\n") + "\n"
    }

    /// A matrix: three shards, each building its run of chapters' items (and the edge item of each
    /// chapter either side) and finishing its chapters — verification chunks, AAC encodings, ACX files —
    /// into one cache, then a plain build with the cache: it synthesizes (beyond its spot checks),
    /// transcribes, encodes and masters nothing, and its M4B, EPUB and ACX files are one machine's,
    /// byte for byte. With a shard missing, the assembler does that shard's chapters itself and the
    /// files are the same; an encoding in the cache with other bytes is refused, naming its chapter.
    @Test func shardsFinishTheirChaptersAndTheAssemblerMakesNothing() throws {
        let server = try CacheServer()
        let recipe = Fixtures.recipe(
            voice: "en-us+klatt",
            extra:
                #""title": "Matrix", "exports": { "formats": ["m4b", "epub", "acx"] }, "verify": { "maxWordErrorRate": 0.25 }"#
        )
        let project = try TestProject(book: Self.chapteredBook(5), recipe: recipe)
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        let single = try project.build(["-o", "single"], environment: epoch)
        #expect(single.status == 0, "\(single.errors)")
        let chunks = Self.int(single.summary, "transcribedChunks")
        func files(_ folder: String) throws -> [String: Data] {
            var found: [String: Data] = [:]
            for sub in ["m4b", "epub", "acx"] {
                let directory = project.directory.file("\(folder)/exports/\(sub)")
                for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
                where !name.hasPrefix(".") {
                    found["\(sub)/\(name)"] = try Data(contentsOf: directory.appendingPathComponent(name))
                }
            }
            return found
        }
        let expected = try files("single")
        #expect(
            expected.count == 9, "an M4B, an EPUB, five ACX chapters and two credits: \(expected.keys.sorted())")

        func runShards(_ indices: [Int], prefix: String) throws -> [[String: Any]] {
            try indices.map { index in
                let shard = try project.build(
                    [
                        "--remote-cache", server.url + prefix, "--shard", "\(index)/3", "-o",
                        "shard\(index)\(prefix.dropFirst())",
                    ], environment: epoch)
                #expect(shard.status == 0, "\(shard.errors)")
                return shard.summary ?? [:]
            }
        }
        let shards = try runShards([1, 2, 3], prefix: "/all")
        // Each shard makes its chapters' items and one edge item of each chapter either side, so a
        // paid voice is paid for the book once and four items more (two shard boundaries).
        let made = shards.map { Self.int($0, "synthesized") }
        #expect(made.reduce(0, +) <= Self.int(single.summary, "items") + 4, "\(made)")
        #expect(
            shards.map { Self.int($0, "transcribedChunks") }.reduce(0, +) == chunks, "each chunk heard by one shard")
        #expect(shards.map { Self.int($0, "encodedChapters") }.reduce(0, +) == 5, "each chapter encoded by one shard")
        #expect(
            shards.map { Self.int($0, "masteredACXFiles") }.reduce(0, +) == 5, "each ACX file mastered by one shard")
        #expect(
            shards.allSatisfy { Self.int($0, "encodedChapters") >= 1 }, "five chapters over three shards: \(shards)")

        let assembled = try project.build(
            ["--remote-cache", server.url + "/all", "-o", "assembled"], environment: epoch)
        #expect(assembled.status == 0, "\(assembled.errors)")
        let summary = assembled.summary
        #expect(Self.allFromCache(summary, items: Self.int(single.summary, "items")), "\(summary ?? [:])")
        #expect(
            Self.int(summary, "transcribedChunks") == 0 && Self.int(summary, "encodedChapters") == 0,
            "\(summary ?? [:])")
        #expect(
            Self.int(summary, "downloadedEncodings") == 5 && Self.int(summary, "downloadedACXFiles") == 5,
            "\(summary ?? [:])")
        #expect(summary?["verificationPassed"] as? Bool == true)
        #expect(try files("assembled") == expected, "the assembled book is one machine's, byte for byte")
        // Built without the bytes: every item's audio stayed in the cache, but the spot-checked ones
        // made here, and the two credits, which the assembler speaks.
        #expect(Self.int(summary, "leftInCache") > 0 && Self.int(summary, "fetchedAudio") == 0, "\(summary ?? [:])")
        #expect(try Self.audioFiles(in: project.directory.file("assembled")) == Self.int(summary, "spotChecked") + 2)

        // The cache fails part of the way (half its blobs answer 500): the assembler makes what it
        // could not download, says so once, and writes the same bytes.
        let flaky = try project.build(["--remote-cache", server.flakyURL + "/all", "-o", "flaky"], environment: epoch)
        #expect(flaky.status == 0, "\(flaky.errors)")
        #expect(flaky.events("warning").count == 1, "\(Self.warnings(flaky))")
        #expect(
            Self.int(flaky.summary, "synthesized") > Self.int(flaky.summary, "spotChecked"), "\(flaky.summary ?? [:])")
        #expect(try files("flaky") == expected, "the book assembled past a failing cache is one machine's")
        #expect(server.requests().contains { $0.hasPrefix("GET /flaky/all/cas/") && $0.hasSuffix(" 500") })

        // Shard 2 never ran: the assembler finishes its chapters itself.
        _ = try runShards([1, 3], prefix: "/gap")
        let gap = try project.build(["--remote-cache", server.url + "/gap", "-o", "gap"], environment: epoch)
        #expect(gap.status == 0, "\(gap.errors)")
        #expect(
            Self.int(gap.summary, "encodedChapters") >= 1 && Self.int(gap.summary, "transcribedChunks") >= 1,
            "\(gap.summary ?? [:])")
        #expect(Self.int(gap.summary, "encodedChapters") + Self.int(gap.summary, "downloadedEncodings") == 5)
        #expect(try files("gap") == expected)
        // It fetched the audio of the chapters it finished (and their neighbours' edges), not the book's.
        let fetched = Self.int(gap.summary, "fetchedAudio")
        #expect(fetched > 0 && fetched < Self.int(gap.summary, "leftInCache"), "\(gap.summary ?? [:])")

        // An encoding in the cache with other bytes (of the right size) is refused, naming its chapter.
        let stored = try Manifest(directory: project.directory.file("assembled"), create: false).encodedObjects()
        let blob = try #require(
            stored.first {
                FileManager.default.fileExists(atPath: server.root.appendingPathComponent("all/cas/\($0.sha256)").path)
            })
        let cached = server.root.appendingPathComponent("all/cas/\(blob.sha256)")
        var bytes = try Data(contentsOf: cached)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: cached)
        let refused = try project.build(["--remote-cache", server.url + "/all", "-o", "refused"], environment: epoch)
        #expect(refused.status == 0, "\(refused.errors)")
        #expect(Self.warnings(refused).contains("encoded here"), "\(Self.warnings(refused))")
        let refusedFiles = try files("refused")
        #expect(Self.int(refused.summary, "encodedChapters") == 1 && refusedFiles == expected)
        // Blobs were streamed to files as they arrived: none is left behind, the refused one included.
        for folder in ["assembled", "refused"] {
            let tmp = project.directory.file("\(folder)/objects/tmp").path
            let exportsFolder = project.directory.file("\(folder)/exports").path
            let left =
                ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [])
                + ((try? FileManager.default.contentsOfDirectory(atPath: exportsFolder)) ?? []).filter {
                    $0.hasSuffix(".tmp")
                }
            #expect(left.isEmpty, "\(folder) left \(left)")
        }

        // A shard needs a cache it can write to.
        let lonely = try project.build(["--shard", "1/3", "-o", "lonely"])
        #expect(lonely.status == 2 && lonely.errors.contains("--remote-cache"), "\(lonely.errors)")
        let readOnly = try project.build([
            "--shard", "1/3", "-o", "lonely", "--remote-cache", server.url, "--remote-cache-read-only",
        ])
        #expect(readOnly.status == 2)
        // --shard is read as I/N: anything else is refused before any work, saying what it takes.
        for bad in ["0/3", "4/3", "2", "a/b"] {
            let refused = try project.build(["--shard", bad, "-o", "lonely", "--remote-cache", server.url])
            #expect(refused.status == 2 && refused.errors.contains("give I/N"), "--shard \(bad): \(refused.errors)")
        }
    }

    /// Ctrl-C in a shard's synthesis, its verification and its encoding: each stops with exit 130
    /// within a second and a half, and leaves no entry in the cache without its blobs; the shards run
    /// again finish, and the assembled book is one machine's.
    @Test func aShardStoppedInAnyPhaseLeavesNothingHalfUploaded() throws {
        let server = try CacheServer()
        let recipe = Fixtures.recipe(
            voice: "en-us+klatt", jobs: 2,
            extra: #""title": "Stops", "exports": { "formats": ["m4b"] }, "verify": { "maxWordErrorRate": 0.5 }"#)
        let project = try TestProject(book: Fixtures.sampleText, recipe: recipe)
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        let single = try project.build(["-o", "single"], environment: epoch)
        try #require(single.status == 0, "\(single.errors)")
        let triggers: [(phase: String, line: (String) -> Bool)] = [
            ("synthesis", { $0.contains(#""event":"item""#) }),
            ("verification", { $0.contains(#""event":"verified""#) }),
            ("encoding", { $0.contains(#""event":"exporting""#) }),
        ]
        for (index, trigger) in triggers.enumerated() {
            let shard = try project.start([
                "build", "recipe.json", "--json", "--remote-cache", server.url, "--shard", "1/2", "-o",
                "stopped\(index)",
            ])
            let reached = shard.waitForLines(count: 1, where: trigger.line)
            let signalled = Date()
            shard.signal(SIGINT)
            let stopped = shard.wait()
            #expect(reached && stopped.status == 130, "\(trigger.phase): exit \(stopped.status), \(stopped.errors)")
            #expect(
                Date().timeIntervalSince(signalled) < 1.5,
                "\(trigger.phase): \(Date().timeIntervalSince(signalled)) s to stop")
            try Self.checkEveryEntryNamesStoredBlobs(server)
        }
        _ = try Self.shardAndAssemble(project, server: server, environment: epoch)
    }

    /// One chapter holding most of the book does not hold one shard until the others are done: its
    /// encoding pieces (8 s here, half an hour in a release build) are spread over all three shards,
    /// each piece encoded by one, and so are its ACX parts (30 s here, ACX's two hours in a release
    /// build); the assembler still makes nothing and writes one machine's M4B, EPUB and ACX files,
    /// byte for byte.
    @Test func aLongChaptersPiecesAreSpreadOverTheShards() throws {
        let server = try CacheServer()
        let paragraphs = Fixtures.sampleText.components(separatedBy: "\n\n").filter {
            $0.count > 80 && !$0.hasPrefix("Chapter")
        }
        let book =
            "Chapter 1\n\n\(paragraphs[0])\n\nChapter 2\n\n\(paragraphs[1..<11].joined(separator: "\n\n"))\n\nChapter 3\n\n\(paragraphs[11])\n"
        let recipe = Fixtures.recipe(
            voice: "en-us+klatt",
            extra:
                #""title": "Long", "credits": false, "exports": { "formats": ["m4b", "epub", "acx"] }, "verify": { "maxWordErrorRate": 0.25 }"#
        )
        let project = try TestProject(book: book, recipe: recipe)
        let environment = [
            "SOURCE_DATE_EPOCH": "1700000000", "FORGE_PIECE_SECONDS": "8", "FORGE_ACX_PART_SECONDS": "30",
        ]
        let single = try project.build(["-o", "single"], environment: environment)
        try #require(single.status == 0, "\(single.errors)")
        let pieces = Self.int(single.summary, "encodedChapters")
        #expect(pieces >= 8, "the long chapter is encoded in pieces: \(single.summary ?? [:])")
        let shards = try (1...3).map { index in
            let shard = try project.build(
                ["--remote-cache", server.url, "--shard", "\(index)/3", "-o", "shard\(index)"], environment: environment
            )
            #expect(shard.status == 0, "\(shard.errors)")
            return shard.summary ?? [:]
        }
        let encoded = shards.map { Self.int($0, "encodedChapters") }
        #expect(encoded.reduce(0, +) == pieces, "each piece encoded by one shard: \(encoded)")
        // Chapter 2 is most of the book: finished whole, one shard would encode most pieces.
        #expect(
            encoded.allSatisfy { $0 >= 1 && $0 * 2 < pieces },
            "the long chapter's pieces are spread: \(encoded) of \(pieces)")
        #expect(
            shards.map { Self.int($0, "transcribedChunks") }.reduce(0, +)
                == Self.int(single.summary, "transcribedChunks"))
        let acxFiles = try FileManager.default.contentsOfDirectory(
            atPath: project.directory.file("single/exports/acx").path
        ).filter { $0.hasSuffix(".mp3") }
        let parts = acxFiles.filter { $0.hasPrefix("02-chapter-2-part-") }
        #expect(parts.count >= 3 && acxFiles.contains("01-chapter-1.mp3"), "chapter 2 in parts: \(acxFiles.sorted())")
        let mastered = shards.map { Self.int($0, "masteredACXFiles") }
        #expect(
            mastered.reduce(0, +) == acxFiles.count && mastered.allSatisfy { $0 >= 1 && $0 * 2 < acxFiles.count },
            "ACX parts spread: \(mastered)")

        let assembled = try project.build(["--remote-cache", server.url, "-o", "assembled"], environment: environment)
        #expect(assembled.status == 0, "\(assembled.errors)")
        #expect(
            Self.int(assembled.summary, "encodedChapters") == 0
                && Self.int(assembled.summary, "transcribedChunks") == 0, "\(assembled.summary ?? [:])")
        #expect(Self.int(assembled.summary, "downloadedEncodings") == pieces)
        #expect(Self.int(assembled.summary, "downloadedACXFiles") == acxFiles.count)
        for folder in ["m4b", "epub", "acx"] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: project.directory.file("single/exports/\(folder)").path
            ).filter { !$0.hasPrefix(".") }
            for name in names {
                let made = try Data(contentsOf: project.directory.file("assembled/exports/\(folder)/\(name)"))
                #expect(
                    made == (try Data(contentsOf: project.directory.file("single/exports/\(folder)/\(name)"))),
                    "the assembled \(folder)/\(name) is the single build's")
            }
        }
    }

    /// Two shards and an assembler of `project` through `server`; checks the assembler encoded
    /// nothing and wrote the M4B of the project's `single` build, and returns that M4B.
    static func shardAndAssemble(
        _ project: TestProject, server: CacheServer, environment: [String: String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Data {
        for index in 1...2 {
            let shard = try project.build(
                ["--remote-cache", server.url, "--shard", "\(index)/2", "-o", "shard\(index)"], environment: environment
            )
            #expect(shard.status == 0, "\(shard.errors)", sourceLocation: sourceLocation)
        }
        let assembled = try project.build(["--remote-cache", server.url, "-o", "assembled"], environment: environment)
        #expect(
            assembled.status == 0 && int(assembled.summary, "encodedChapters") == 0, "\(assembled.summary ?? [:])",
            sourceLocation: sourceLocation)
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: project.directory.file("single/exports/m4b").path).first
        )
        let made = try Data(contentsOf: project.directory.file("assembled/exports/m4b/\(name)"))
        #expect(
            made == (try Data(contentsOf: project.directory.file("single/exports/m4b/\(name)"))),
            "the assembled M4B is the single build's", sourceLocation: sourceLocation)
        return made
    }

    /// Two recipes of one book (another voice rate, so other audio for every item) sharded into one
    /// cache never mix: each assembler takes only its own recipe's encodings and writes its own
    /// single build's M4B, byte for byte.
    @Test func shardsOfDifferentRecipesInOneCacheNeverMix() throws {
        let server = try CacheServer()
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        var books: [Data] = []
        for rate in [175, 190] {
            let recipe = Fixtures.recipe(
                voice: "en-us+klatt", rate: rate, extra: #""title": "Mixed", "exports": { "formats": ["m4b"] }"#)
            let project = try TestProject(book: Self.chapteredBook(3), recipe: recipe)
            let single = try project.build(["-o", "single"], environment: epoch)
            try #require(single.status == 0, "\(single.errors)")
            books.append(try Self.shardAndAssemble(project, server: server, environment: epoch))
        }
        #expect(books[0] != books[1], "the two recipes make other audio")
    }

    /// Every entry in the cache (items, chunks, chapter objects) names only blobs the cache holds whole.
    static func checkEveryEntryNamesStoredBlobs(
        _ server: CacheServer, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let blobs = server.files("cas")
        for (name, file) in blobs {
            #expect(
                try ContentHash.sha256Hex(fileAt: file) == name, "blob \(name) is not what its name says",
                sourceLocation: sourceLocation)
        }
        for (name, file) in server.files("ac") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /"sha256"\s*:\s*"([0-9a-f]{64})"/) {
                #expect(
                    blobs[String(match.1)] != nil, "entry \(name) names a missing blob", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aBlobThatDoesNotMatchItsDigestIsRejectedAndTheItemMadeHere() throws {
        let server = try CacheServer()
        let project = try TestProject()
        let cold = try project.build(["--remote-cache", server.url])
        let items = Self.int(cold.summary, "items")
        // Damage one item's audio blob on the server, keeping its name.
        let victim = try #require(try project.manifest().items().first)
        let entryFile = try #require(server.files("ac")[SpeechCacheEntry.actionKey(audioKey: victim.audioKey ?? "")])
        let entry = try JSONDecoder().decode(SpeechCacheEntry.self, from: Data(contentsOf: entryFile))
        let blob = server.root.appendingPathComponent("cas/\(entry.audio.sha256)")
        var bytes = try Data(contentsOf: blob)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: blob)

        // Every item's audio is downloaded (and checked) here; a build that leaves it in the cache is tested below.
        let warm = try project.build(["--remote-cache", server.url, "--remote-download-all", "-o", "warm"])
        #expect(warm.status == 0, "\(warm.errors)")
        #expect(warm.synthesizedItems.contains(victim.id))
        #expect(Self.int(warm.summary, "downloaded") == items - warm.synthesizedItems.count)
        #expect(warm.synthesizedItems.count <= 1 + Self.int(warm.summary, "spotChecked"))
        #expect(warm.events("warning").count == 1)
        #expect(
            Self.warnings(warm).contains(victim.id) && Self.warnings(warm).contains("SHA-256"), "\(Self.warnings(warm))"
        )
        try project.checkConsistency(of: project.directory.file("warm"))
        // The item's new rendering replaced the entry: the next machine downloads everything.
        let next = try project.build(["--remote-cache", server.url, "-o", "next"])
        #expect(Self.allFromCache(next.summary, items: items) && next.events("warning").isEmpty, "\(next.errors)")
        _ = try Self.checkEntries(server)
    }

    @Test func aCacheThatFailsLeavesALocalBuildAndOneWarning() throws {
        let server = try CacheServer()
        let silent = try SilentServer()
        let project = try TestProject()
        let cases: [(label: String, arguments: [String])] = [
            ("500", ["--remote-cache", server.brokenURL]),
            ("refused", ["--remote-cache", "http://127.0.0.1:\(try CacheServer.freePort())/forge"]),
        ]
        for (label, arguments) in cases {
            let result = try project.build(arguments + ["-o", "out-\(label)"])
            #expect(result.status == 0, "\(label): \(result.errors)")
            #expect(result.events("warning").count == 1, "\(label): \(result.errors)")
            #expect(result.summary?["remoteCacheAvailable"] as? Bool == false)
            #expect(Self.int(result.summary, "synthesized") == Self.int(result.summary, "items"))
        }
        // A server that never answers: the lookup gives up after cache.timeoutSeconds.
        try project.write(
            recipe: Fixtures.recipe(extra: "\"cache\": { \"remote\": \"\(silent.url)\", \"timeoutSeconds\": 1 }"))
        let started = Date()
        let hung = try project.build(["-o", "out-hung"])
        #expect(hung.status == 0 && hung.events("warning").count == 1, "\(hung.errors)")
        #expect(Self.warnings(hung).contains("slower than 1024 bytes/s for 1 s"), "\(Self.warnings(hung))")
        #expect(Date().timeIntervalSince(started) < 20)

        // Ctrl-C while a lookup waits for that server: exit 130 within a second, nothing made.
        try project.write(
            recipe: Fixtures.recipe(extra: "\"cache\": { \"remote\": \"\(silent.url)\", \"timeoutSeconds\": 60 }"))
        let waiting = try project.start(["build", "recipe.json", "--json", "-o", "out-interrupted"])
        #expect(waiting.waitForLines(count: 1) { $0.contains("\"event\":\"planned\"") })
        usleep(300_000)
        let interrupted = Date()
        waiting.signal(SIGINT)
        let stopped = waiting.wait()
        #expect(stopped.status == 130, "\(stopped.errors)")
        #expect(Date().timeIntervalSince(interrupted) < 1.5)

        // Required: the build stops before making anything, exit 3.
        try project.write(
            recipe: Fixtures.recipe(extra: "\"cache\": { \"remote\": \"\(server.brokenURL)\", \"required\": true }"))
        let required = try project.build(["-o", "out-required"])
        #expect(required.status == 3 && required.errors.contains("cache.required"), "\(required.errors)")
        #expect(
            try Manifest(directory: project.directory.file("out-required"), create: false).items().allSatisfy {
                $0.status == .pending
            })

        // The server stopped in the middle of a build: the build finishes here.
        try project.write(book: Fixtures.longerText)
        try project.write(recipe: Fixtures.recipe(jobs: 1))
        let forge = try project.start([
            "build", "recipe.json", "--json", "--remote-cache", server.url, "-o", "out-stopped",
        ])
        #expect(forge.waitForLines(count: 3) { $0.contains("\"outcome\":\"synthesized\"") })
        server.stop()
        let finished = forge.wait()
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(finished.events("warning").count == 1, "\(finished.errors)")
        #expect(Self.int(finished.summary, "remaining") == 0)
    }

    @Test func aReadOnlyCacheIsNeverWritten() throws {
        let server = try CacheServer()
        let project = try TestProject()
        _ = try project.build(["--remote-cache", server.url])
        let puts = server.requests().filter { $0.hasPrefix("PUT") }.count
        #expect(puts > 0)
        // One paragraph edited: a read-only build downloads the rest and makes that one here.
        try project.write(
            book: Fixtures.shortBook.replacingOccurrences(
                of: "Mr. Bennet replied that he had not.", with: "Mr. Bennet replied that he had not heard."))
        let readOnly = try project.build(["--remote-cache", server.url, "--remote-cache-read-only", "-o", "pr"])
        #expect(readOnly.status == 0, "\(readOnly.errors)")
        #expect(
            readOnly.synthesizedItems.count >= 1
                && readOnly.synthesizedItems.count <= 1 + Self.int(readOnly.summary, "spotChecked"))
        #expect(
            Self.int(readOnly.summary, "downloaded") == Self.int(readOnly.summary, "items")
                - readOnly.synthesizedItems.count)
        #expect(server.requests().filter { $0.hasPrefix("PUT") }.count == puts, "a read-only build sent PUT requests")
    }

    @Test func aBuildKilledWhileUploadingLeavesNoEntryWithoutItsBlobsAndTheRerunFinishesTheUploads() throws {
        let server = try CacheServer()
        let project = try TestProject(book: Fixtures.longerText)
        let forge = try project.start(["build", "recipe.json", "--json", "--remote-cache", server.url])
        #expect(forge.waitForLines(count: 20) { $0.contains("\"outcome\":\"synthesized\"") })
        forge.signalTree(SIGKILL)
        _ = forge.wait()
        _ = try Self.checkEntries(server)

        let rerun = try project.build(["--remote-cache", server.url])
        #expect(rerun.status == 0, "\(rerun.errors)")
        let items = Self.int(rerun.summary, "items")
        let distinct = Set(try project.manifest().items().compactMap(\.audioKey)).count
        #expect(try Self.checkEntries(server) == distinct, "the rerun uploads what the killed build had not")
        let warm = try project.build(["--remote-cache", server.url, "-o", "warm"])
        #expect(Self.allFromCache(warm.summary, items: items), "\(warm.errors)")
    }

    /// Build without the bytes: a build with the cache takes every item's events and measures and
    /// leaves its audio there; status and fsck say so, a rebuild is up to date, and a command that
    /// reads the samples (an audio export) fetches them first and writes what a build that made
    /// them writes. A blob the cache lost makes its item pending, and the next build makes it.
    @Test func aBuildLeavesTheAudioItDoesNotReadInTheCache() throws {
        let server = try CacheServer()
        let project = try TestProject()
        let cold = try project.build(["--remote-cache", server.url])
        let items = Self.int(cold.summary, "items")
        let warm = try project.build(["--remote-cache", server.url, "-o", "warm"])
        #expect(warm.status == 0, "\(warm.errors)")
        #expect(Self.allFromCache(warm.summary, items: items), "\(warm.summary ?? [:])")
        let left = Self.int(warm.summary, "leftInCache")
        #expect(
            left > 0 && Self.int(warm.summary, "leftInCacheBytes") > Self.int(warm.summary, "downloadedBytes"),
            "\(warm.summary ?? [:])")
        let warmDirectory = project.directory.file("warm")
        #expect(try Self.audioFiles(in: warmDirectory) == Self.int(warm.summary, "spotChecked"))
        try project.checkConsistency(of: warmDirectory)
        func fields(_ arguments: [String]) throws -> [String: Any] {
            let result = try project.forge(arguments)
            return try #require(
                try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any], "\(result.errors)")
        }
        #expect(try fields(["status", "warm", "--json"])["remoteObjects"] as? Int == left)
        var audit = try fields(["fsck", "warm", "--json"])
        #expect(audit["clean"] as? Bool == true && audit["remoteObjects"] as? Int == left, "\(audit)")

        let again = try project.build(["--remote-cache", server.url, "-o", "warm"])
        #expect(
            again.summary?["nothingToDo"] as? Bool == true && (again.summary?["fetchedAudio"] as? Int ?? 0) == 0,
            "\(again.summary ?? [:])")

        // An export that reads the samples fetches them, and writes what the cold build's store gives.
        let export = try project.forge(["export", "warm", "--format", "audio"])
        #expect(export.status == 0 && export.errors.contains("fetched the audio of \(left) items"), "\(export.errors)")
        #expect(try project.forge(["export", "out", "--format", "audio"]).status == 0)
        let chapters = try FileManager.default.contentsOfDirectory(
            atPath: project.output.appendingPathComponent("exports/audio").path
        ).sorted()
        #expect(!chapters.isEmpty)
        for name in chapters {
            #expect(
                try Data(contentsOf: warmDirectory.appendingPathComponent("exports/audio/\(name)"))
                    == Data(contentsOf: project.output.appendingPathComponent("exports/audio/\(name)")), "\(name)")
        }
        #expect(try fields(["status", "warm", "--json"])["remoteObjects"] as? Int == 0)
        audit = try fields(["fsck", "warm", "--json"])
        #expect(audit["clean"] as? Bool == true && audit["remoteObjects"] as? Int == 0, "\(audit)")

        // The cache loses a blob it still has the entry of: the export says so, the item is pending,
        // and the next build (which checks each blob it leaves) makes it again.
        _ = try project.build(["--remote-cache", server.url, "-o", "lost"])
        let lostManifest = try Manifest(directory: project.directory.file("lost"), create: false)
        let victim = try #require(try lostManifest.remoteObjects().values.min { $0.object.key < $1.object.key })
        try FileManager.default.removeItem(at: server.root.appendingPathComponent("cas/\(victim.object.sha256)"))
        let refused = try project.forge(["export", "lost", "--format", "audio"])
        #expect(refused.status == 3 && refused.errors.contains("no longer has the audio of 1"), "\(refused.errors)")
        let pending = try lostManifest.items().filter { $0.status == .pending }
        #expect(!pending.isEmpty && pending.allSatisfy { $0.audioKey == nil })
        let remade = try project.build(["--remote-cache", server.url, "-o", "lost"])
        #expect(remade.status == 0 && Set(pending.map(\.id)).isSubset(of: remade.synthesizedItems), "\(remade.errors)")
        #expect(try project.forge(["export", "lost", "--format", "audio"]).status == 0)
        try project.checkConsistency(of: project.directory.file("lost"))

        // fsck --repair fetches what a build left in the cache, so the directory holds all it
        // records; audio the cache no longer has is said, and its item marked for rebuild.
        _ = try project.build(["--remote-cache", server.url, "-o", "alone"])
        let aloneDirectory = project.directory.file("alone")
        let leftThere = try #require(try fields(["status", "alone", "--json"])["remoteObjects"] as? Int)
        #expect(leftThere > 1)
        let gone = try #require(
            try Manifest(directory: aloneDirectory, create: false).remoteObjects().values.max {
                $0.object.key < $1.object.key
            })
        try FileManager.default.removeItem(at: server.root.appendingPathComponent("cas/\(gone.object.sha256)"))
        let repaired = try project.forge(["fsck", "--repair", "alone"])
        #expect(
            repaired.status == 0 && repaired.errors.contains("no longer has the audio of 1"),
            "\(repaired.text) \(repaired.errors)")
        #expect(try fields(["status", "alone", "--json"])["remoteObjects"] as? Int == 0)
        #expect(try Self.audioFiles(in: aloneDirectory) >= leftThere - 1)
        audit = try fields(["fsck", "alone", "--json"])
        #expect(audit["clean"] as? Bool == true, "\(audit)")
        let rebuilt = try project.build(["--remote-cache", server.url, "-o", "alone"])
        #expect(rebuilt.status == 0 && !rebuilt.synthesizedItems.isEmpty, "\(rebuilt.errors)")
        try project.checkConsistency(of: aloneDirectory)
    }

    /// The audio files in an output directory's store.
    static func audioFiles(in directory: URL) throws -> Int {
        let enumerator = FileManager.default.enumerator(
            at: directory.appendingPathComponent("objects"), includingPropertiesForKeys: nil)
        var count = 0
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "wav" { count += 1 }
        }
        return count
    }

    @Test func verificationComesFromTheCacheForTheSameAudioBytes() throws {
        let server = try CacheServer()
        let project = try TestProject(
            recipe: Fixtures.recipe(voice: "en-us+klatt", extra: #""verify": { "maxWordErrorRate": 0.5 }"#))
        let cold = try project.build(["--remote-cache", server.url])
        #expect(cold.status == 0, "\(cold.errors)")
        let chunks = Self.int(cold.summary, "uploadedChunks")
        #expect(chunks > 0)
        let heard = try project.manifest().storedChunks()

        let warm = try project.build(["--remote-cache", server.url, "-o", "warm"])
        #expect(warm.status == 0, "\(warm.errors)")
        #expect(Self.allFromCache(warm.summary, items: Self.int(warm.summary, "items")))
        #expect(Self.int(warm.summary, "downloadedChunks") == chunks && Self.int(warm.summary, "uploadedChunks") == 0)
        #expect(warm.events("verified").isEmpty, "no chunk was transcribed again")
        #expect(
            warm.summary?["verified"] as? Bool == true
                && warm.summary?["wordErrorRate"] as? Double == cold.summary?["wordErrorRate"] as? Double)
        let manifest = try Manifest(directory: project.directory.file("warm"), create: false)
        let taken = try manifest.storedChunks()
        #expect(taken.mapValues(\.report) == heard.mapValues(\.report))
        for position in heard.keys {
            #expect(
                try manifest.transcript(chapter: position.chapter, chunkStartMs: position.startMs).map(\.text)
                    == project.manifest().transcript(chapter: position.chapter, chunkStartMs: position.startMs).map(
                        \.text))
        }
        // A chunk's entry is filed under its audio's digests: other bytes for the same items find none.
        #expect(
            ChunkCacheEntry.actionKey(chunkKey: "k", audioDigests: ["a", "b"])
                != ChunkCacheEntry.actionKey(chunkKey: "k", audioDigests: ["a", "c"]))
    }

    @Test func forcedAlignmentsComeFromTheCache() throws {
        let server = try CacheServer()
        let project = try TestProject(recipe: Fixtures.recipe(extra: #""alignment": { "method": "forced" }"#))
        let cold = try project.build(["--remote-cache", server.url])
        #expect(cold.status == 0, "\(cold.errors)")
        let items = Self.int(cold.summary, "items")
        #expect(Self.int(cold.summary, "uploadedAlignments") == items)

        let warm = try project.build(["--remote-cache", server.url, "-o", "warm"])
        #expect(warm.status == 0, "\(warm.errors)")
        #expect(Self.allFromCache(warm.summary, items: items))
        // The spot-checked items were made here with the same bytes, so their alignments come from the cache too.
        #expect(Self.int(warm.summary, "downloadedAlignments") == items)
        #expect(Self.int(warm.summary, "uploadedAlignments") == 0)
        #expect(try Self.snapshot(project.directory.file("warm")) == Self.snapshot(project.output))
        let manifest = try Manifest(directory: project.directory.file("warm"), create: false)
        #expect(try manifest.items().allSatisfy { $0.alignmentSource == .forced })
        try project.checkConsistency(of: project.directory.file("warm"))
    }

    @Test func shardsAndCacheSettingsAreChecked() throws {
        #expect(Shard("2/3") == Shard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3"] { #expect(Shard(bad) == nil, "\(bad)") }
        // Chapters go to shards in runs, each to exactly one, balanced by length; lengthening one
        // chapter moves at most the chapters at a cut.
        let lengths = (1...61).map { (ordinal: $0, ms: 400_000 + ($0 * 7_919) % 500_000) }
        let owned = (1...8).map { Shard(index: $0, count: 8)!.chapters(of: lengths) }
        #expect(owned.flatMap { $0 } == Array(1...61), "every chapter once, in runs: \(owned)")
        let total = lengths.reduce(0) { $0 + $1.ms }
        let shares = owned.map { chapters in chapters.reduce(0) { $0 + lengths[$1 - 1].ms } }
        #expect(shares.allSatisfy { abs($0 - total / 8) <= 900_000 }, "within a chapter of an eighth: \(shares)")
        var edited = lengths
        edited[30].ms += 60_000
        let after = (1...8).map { Shard(index: $0, count: 8)!.chapters(of: edited) }
        let moved = zip(owned, after).map { Set($0).symmetricDifference(Set($1)).count }.reduce(0, +) / 2
        #expect(moved <= 8, "an edit moves at most the chapters at the cuts: \(moved)")

        // A chapter of four hours among ten-minute ones: its stretches go to the shards its estimated
        // span falls in, each point to exactly one, and each of those shards makes the chapter's
        // items and its neighbours' edge items; a whole chapter is still its one shard's.
        let long = (1...20).map { (ordinal: $0, ms: $0 == 5 ? 4 * 3_600_000 : 600_000) }
        let assignments = (1...8).map { ShardAssignment(shard: Shard(index: $0, count: 8)!, lengths: long) }
        var owners: [Int] = []
        for point in stride(from: 0.005, to: 1, by: 0.01) {
            let owning = assignments.filter { $0.owns(chapter: 5, at: point, whole: false) }
            #expect(owning.count == 1, "the point \(point) of chapter 5 is owned by \(owning.map(\.shard.index))")
            owners += owning.map(\.shard.index)
            #expect(
                owning.allSatisfy {
                    $0.itemChapters.contains(5) && $0.edgeChapters.previous.union($0.itemChapters).contains(4)
                        && $0.edgeChapters.next.union($0.itemChapters).contains(6)
                })
        }
        #expect(Set(owners).count >= 4, "a four-hour chapter of a seven-hour book is spread: \(Set(owners).sorted())")
        #expect(assignments.map { $0.owns(chapter: 5, at: 0.1, whole: true) }.filter { $0 }.count == 1)
        // A ten-minute chapter, even one whose estimated span crosses a cut (10 and 15), is made and
        // finished by its own shard alone, though its audio come out longer than a piece.
        for ordinal in 1...20 where ordinal != 5 {
            let making = assignments.filter { $0.itemChapters.contains(ordinal) }
            #expect(making.count == 1, "chapter \(ordinal) is made by \(making.map(\.shard.index))")
            let finishing = assignments.filter { $0.owns(chapter: ordinal, at: 0.9, whole: false) }
            #expect(finishing.map(\.shard.index) == making.map(\.shard.index))
        }
        #expect(
            assignments.map { $0.chapters.count }.reduce(0, +) == 20
                && assignments.allSatisfy { !$0.itemChapters.contains(5) || $0.itemChapters.count < 20 })

        #expect(
            try RemoteCacheSettings.parseURL("http://cache:8080/forge/").get().absoluteString
                == "http://cache:8080/forge")
        #expect(throws: RemoteCacheSettings.URLProblem.credentials) {
            try RemoteCacheSettings.parseURL("https://user:pw@cache/forge").get()
        }
        #expect(throws: RemoteCacheSettings.URLProblem.scheme("ftp")) {
            try RemoteCacheSettings.parseURL("ftp://cache/forge").get()
        }
        #expect(RemoteCacheSettings.redacted("https://user:pw@cache/x") == "https://…@cache/x")
        #expect(throws: RemoteCacheError.malformedHeader(variable: RemoteCacheSettings.headerVariable)) {
            try RemoteCacheSettings.header(from: [RemoteCacheSettings.headerVariable: "Bearer abc"])
        }
        let header = try RemoteCacheSettings.header(from: [
            RemoteCacheSettings.headerVariable: "Authorization: Bearer a:b"
        ])
        #expect(header?.name == "Authorization" && header?.value == "Bearer a:b")

        // Credentials in a recipe's URL are refused without echoing them.
        let project = try TestProject(
            recipe: Fixtures.recipe(extra: "\"cache\": { \"remote\": \"https://me:hunter2@cache.example/forge\" }"))
        let result = try project.build()
        #expect(
            result.status == 2 && result.errors.contains("cache.remote") && !result.errors.contains("hunter2"),
            "\(result.errors)")
    }
}
