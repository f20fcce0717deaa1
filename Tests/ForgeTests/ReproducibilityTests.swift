import Foundation
import Testing

@testable import Forge

/// An item's audio depends only on its key: not on the items spoken before it, the worker or `--jobs`.
@Suite("Reproducible builds")
struct ReproducibilityTests {
    @Test func anItemSoundsTheSameAloneAndAfterOthers() throws {
        let engine = try EspeakEngine()
        let voice = VoiceSettings(engine: "espeak-ng", id: "en-us", rate: 175, pitch: 50, volume: 100)
        let other = VoiceSettings(engine: "espeak-ng", id: "en-gb", rate: 140, pitch: 30, volume: 100)
        let item =
            "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife."
        let alone = try engine.synthesize(item, voice: voice, itemID: "b")
        _ = try engine.synthesize(
            "The quick brown fox jumps over the lazy dog, and then it sleeps? Yes!", voice: voice, itemID: "a")
        let afterAnother = try engine.synthesize(item, voice: voice, itemID: "b")
        #expect(afterAnother.samples == alone.samples, "an item's samples depend on the item spoken before it")
        #expect(afterAnother.events == alone.events)
        _ = try engine.synthesize("Another voice, in between.", voice: other, itemID: "c")
        #expect(
            try engine.synthesize(item, voice: voice, itemID: "b").samples == alone.samples,
            "an item's samples depend on the voice used before it")
    }

    @Test func anyNumberOfJobsGivesTheSameBytes() throws {
        let project = try TestProject(book: Fixtures.sampleText)
        var digests: [[String: String]] = []
        for jobs in [1, 2, 3] {
            let result = try project.build(["--jobs", String(jobs), "-o", "out-\(jobs)"])
            #expect(result.status == 0, "\(result.errors)")
            // Audio and events objects both: the events' JSON once came out with keys in hash order.
            let manifest = try Manifest(directory: project.directory.file("out-\(jobs)"), create: false)
            let items = try manifest.items()
            let objects = try manifest.objects(withKeys: items.flatMap { [$0.audioKey ?? "", $0.eventsKey ?? ""] })
            digests.append(
                Dictionary(
                    uniqueKeysWithValues: items.map {
                        (
                            $0.id,
                            (objects[$0.audioKey ?? ""]?.sha256 ?? "") + "/"
                                + (objects[$0.eventsKey ?? ""]?.sha256 ?? "")
                        )
                    }))
        }
        #expect(digests[0].count > 50)
        for (index, jobs) in [2, 3].enumerated() {
            let differing = digests[0].keys.filter { digests[0][$0] != digests[index + 1][$0] }
            #expect(
                differing.isEmpty,
                "--jobs \(jobs): \(differing.count) of \(digests[0].count) items have other audio than --jobs 1")
        }
    }

    /// A synthesis process serves many items, rewinding its memory to a checkpoint after each
    /// (where the kernel tracks writes); every item must come out as a fresh fork of the zygote
    /// speaks it, which is what the same build with a process per item gives. Where rewinds keep
    /// failing, the zygote stops taking checkpoints after a few and forks a process per item.
    @Test func itemsSpokenAfterARewindAreTheBytesOfAFreshProcess() throws {
        let project = try TestProject(book: Fixtures.sampleText)
        func build(_ output: String, environment: [String: String]) throws -> (
            digests: [String: String], processes: Int, checkpoints: Int
        ) {
            let result = try project.build(["--jobs", "1", "--verbose", "-o", output], environment: environment)
            #expect(result.status == 0, "\(result.errors)")
            let manifest = try Manifest(directory: project.directory.file(output), create: false)
            let items = try manifest.items()
            let objects = try manifest.objects(withKeys: items.flatMap { [$0.audioKey ?? "", $0.eventsKey ?? ""] })
            let digests = Dictionary(
                uniqueKeysWithValues: items.map {
                    (
                        $0.id,
                        (objects[$0.audioKey ?? ""]?.sha256 ?? "") + "/" + (objects[$0.eventsKey ?? ""]?.sha256 ?? "")
                    )
                })
            // "worker 123: 91 jobs, 1 espeak-ng synthesis processes, 1 memory checkpoints", logged at exit.
            let counts = result.errors.split(separator: "\n").compactMap { line -> (Int, Int)? in
                guard
                    let range = line.range(
                        of: #"jobs, \d+ espeak-ng synthesis processes, \d+ memory checkpoints"#,
                        options: .regularExpression)
                else { return nil }
                let words = line[range].split(separator: " ")
                guard let processes = Int(words[1]), let checkpoints = Int(words[5]) else { return nil }
                return (processes, checkpoints)
            }
            #expect(
                counts.count == 1,
                "the worker's count of synthesis processes is not in its log: \(result.errors.suffix(2000))")
            return (digests, counts.first?.0 ?? -1, counts.first?.1 ?? -1)
        }
        let rewound = try build("out-rewound", environment: [:])
        let forked = try build("out-forked", environment: ["FORGE_SYNTHESIS_FORK_PER_ITEM": "1"])
        let failing = try build("out-failing", environment: ["FORGE_SYNTHESIS_REWIND_FAILS": "1"])
        #expect(rewound.digests.count > 50)
        for (label, other) in [("a process per item", forked), ("failing rewinds", failing)] {
            let differing = rewound.digests.keys.filter { rewound.digests[$0] != other.digests[$0] }.sorted()
            #expect(
                differing.isEmpty,
                "\(differing.count) of \(rewound.digests.count) items differ from \(label): \(differing.prefix(5))")
        }
        #expect(
            forked.processes == forked.digests.count && forked.checkpoints == 0,
            "with FORGE_SYNTHESIS_FORK_PER_ITEM each item takes a process")
        #expect(failing.processes == failing.digests.count, "a speaker whose rewind fails serves one item")
        if MemoryCheckpoint.kernelTracksWrites {
            // One voice: one process for the whole book, unless a rewind found new mappings.
            #expect(
                rewound.processes >= 1 && rewound.processes <= 3,
                "\(rewound.processes) synthesis processes for \(rewound.digests.count) items")
            #expect(rewound.checkpoints == rewound.processes)
            #expect(
                failing.checkpoints == 3,
                "checkpoints are still taken after \(failing.checkpoints) speakers whose first rewind failed")
        } else {
            #expect(rewound.processes == rewound.digests.count && rewound.checkpoints == 0)
        }
    }

    @Test func twoExportsOfOneBuildAreTheSameBytes() throws {
        let project = try TestProject()
        #expect(try project.build().status == 0)
        func exportAll(_ label: String) throws -> [String: String] {
            try? FileManager.default.removeItem(at: project.output.appendingPathComponent("exports"))
            let export = try project.forge(["export", "out", "--format", "epub", "m4b", "json", "vtt", "html"])
            #expect(export.status == 0, "\(export.errors)")
            let pack = try project.forge(["export", "out", "--pack", "\(label).zip"])
            #expect(pack.status == 0, "\(pack.errors)")
            var digests = ["pack": HostileTargetTests.digest(project.directory.file("\(label).zip"))]
            let exports = project.output.appendingPathComponent("exports")
            let files = try #require(FileManager.default.enumerator(at: exports, includingPropertiesForKeys: nil))
            for case let file as URL in files where !file.hasDirectoryPath {
                digests[String(file.path.dropFirst(exports.path.count))] = HostileTargetTests.digest(file)
            }
            return digests
        }
        let first = try exportAll("first")
        #expect(
            first.keys.contains { $0.hasSuffix(".epub") } && first.keys.contains { $0.hasSuffix(".m4b") },
            "\(first.keys)")
        // Two seconds apart (a zip's times have two-second steps): entry times, dcterms:modified and
        // MP4 dates must not come from the clock.
        sleep(2)
        let second = try exportAll("second")
        #expect(first == second, "differ: \(first.keys.filter { first[$0] != second[$0] }.sorted())")
    }

    @Test func checkReproducibleNamesTheItemWhoseBytesChange() throws {
        // The espeak-ng command in a fresh process per item (reproducible), except that text with
        // NOISE in it gets one random sample: that item alone must be named.
        let line = #"reply["audio"] = request["output"]"#
        let engineLines = CommandEngineTests.engine.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = String(try #require(engineLines.first { $0.contains(line) }).prefix { $0 == " " })
        let added = [
            "if \"NOISE\" in request[\"text\"]:", "    import random",
            "    with open(request[\"output\"], \"r+b\") as audio:",
            "        audio.seek(-2, 2)", "        audio.write(random.randbytes(2))",
        ].map { indent + $0 }.joined(separator: "\n")
        let noisy = CommandEngineTests.engine.replacingOccurrences(
            of: indent + line, with: indent + line + "\n" + added)
        #expect(noisy != CommandEngineTests.engine)
        let project = try CommandEngineTests.project(
            book: "A calm sentence.\n\nThis one has NOISE in it.\n\nAnother calm one.\n", voice: #""cli:en-us""#)
        try project.directory.write("engine.py", noisy)
        let build = try project.build(["--allow-commands"])
        #expect(build.status == 0, "\(build.errors)")
        let noise = try #require(try project.manifest().items().first { $0.text.contains("NOISE") })

        let check = try project.build(["--allow-commands", "--check-reproducible"])
        #expect(check.status == 1, "\(check.errors)")
        #expect(check.summary?["reproducibilityChecked"] as? Int == 3)
        #expect(check.summary?["reproducibilityDiffering"] as? [String] == [noise.id])
        let warnings = check.events("warning").compactMap { $0["message"] as? String }
        #expect(
            warnings.count == 1 && warnings[0].contains("item \(noise.id)") && warnings[0].contains("cli:en-us"),
            "\(warnings)")
        #expect(try project.doneItems().count == 3, "the check changes nothing in the store")
        #expect(
            (try? FileManager.default.contentsOfDirectory(
                atPath: project.output.appendingPathComponent("objects/tmp").path)) ?? [] == [])

        let sample = try project.build(["--allow-commands", "--check-reproducible", "--check-items", "1"])
        #expect(sample.summary?["reproducibilityChecked"] as? Int == 1)
    }
}
