import Foundation
import Testing

@testable import Forge
@testable import ForgeCLI

/// docs/json.md against what forge prints with `--json`: a key forge prints that the document does
/// not list fails, and so does a key the document lists that forge's output types cannot print.
@Suite("JSON output and its documentation")
struct JSONOutputTests {
    /// Item events are written without Foundation; they must be the bytes Foundation's encoder gives.
    @Test func itemLinesAreFoundationsBytes() {
        var checked = 0
        for elapsed in [
            0, 0.0004, 0.0005, 0.001, 0.01, 0.1, 0.25, 1, 1.5, 9.999, 10.0001, 12.345, 59.9996, 100, 1234.5678,
            86_399.999, 3_600_000.001,
        ] {
            for (durationMs, outcome) in [
                (Int?.some(1_234), ItemProgress.Outcome.synthesized), (nil, .reused), (0, .aligned),
            ] {
                let item = ItemProgress(
                    itemID: "h0123456789ab", ordinal: 42, outcome: outcome, error: nil, finished: 7, toFinish: 2_243,
                    audioMs: 98_765,
                    durationMs: durationMs, elapsedSeconds: elapsed)
                let direct = BuildEventJSON.itemLine(item)
                #expect(
                    direct == JSONOutput.line(BuildEventJSON(.item(item))),
                    "\(elapsed) s: \(String(decoding: direct ?? Data(), as: UTF8.self))")
                checked += 1
            }
        }
        #expect(checked == 51)
        // What the direct writer does not take: an error message, an id needing escapes.
        let failed = ItemProgress(
            itemID: "a", ordinal: 1, outcome: .failed, error: "it \"broke\"", finished: 1, toFinish: 1, audioMs: 0,
            durationMs: nil, elapsedSeconds: 1)
        #expect(BuildEventJSON.itemLine(failed) == nil)
        var quoted = failed
        quoted.error = nil
        quoted.itemID = "say \"hi\""
        #expect(BuildEventJSON.itemLine(quoted) == nil)
    }

    /// The keys docs/json.md lists, by section: an event's name (`item`) or a command
    /// (`forge plan --json`), each a dotted path (`chapters[].title`).
    static func documentedKeys() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/json.md"), encoding: .utf8)
        var sections: [String: Set<String>] = [:]
        var current: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                // "### `warning`, `error`, `note`": one table for three events.
                current = line.hasPrefix("### ") ? backticked(line) : []
            } else if line.hasPrefix("| `"), let key = backticked(line).first {
                for name in current { sections[name, default: []].insert(key) }
            }
        }
        return sections
    }

    static func backticked(_ line: Substring) -> [String] {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element)
        }
    }

    /// Every key path in a JSON value: objects' keys joined by dots, arrays' elements as `[]`; the
    /// keys of an object keyed by data (verify's chapters in `furthestTranscribedMs`) are not paths.
    static func paths(_ value: Any, prefix: String = "") -> Set<String> {
        if let array = value as? [Any] {
            return array.reduce(into: Set<String>()) { $0.formUnion(paths($1, prefix: prefix + "[]")) }
        }
        guard let object = value as? [String: Any], prefix != "furthestTranscribedMs" else { return [] }
        var found = Set<String>()
        for (key, child) in object {
            let path = prefix.isEmpty ? key : prefix + "." + key
            found.insert(path)
            found.formUnion(paths(child, prefix: path))
        }
        return found
    }

    /// The one object a one-shot command printed.
    static func report(_ result: ForgeResult) throws -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(result.text.utf8))
        return try #require(object as? [String: Any], "\(result.status): \(result.text) \(result.errors)")
    }

    /// Runs every command that prints JSON on a small book (built with verification, then
    /// planned, exported, checked, audited and verified; a build that cannot run; a narration
    /// aligned) and requires each key it printed to be documented under its event or command.
    @Test func everyKeyForgePrintsIsDocumented() throws {
        let documented = try Self.documentedKeys()
        let project = try TestProject(
            recipe: Fixtures.recipe(
                voice: "en-us+klatt", extra: #""verify": { "maxWordErrorRate": 0.9 }, "exports": ["vtt"]"#))
        var printed: [String: Set<String>] = [:]
        func record(_ result: ForgeResult) {
            for event in result.events {
                printed[event["event"] as? String ?? "?", default: []].formUnion(Self.paths(event))
            }
        }
        let build = try project.build()
        #expect(build.status == 0, "\(build.errors)")
        record(build)

        let commands: [(name: String, arguments: [String])] = [
            ("forge plan --json", ["plan", "recipe.json", "--json"]),
            ("forge status --json", ["status", "out", "--json"]),
            ("forge export --json", ["export", "out", "--format", "json", "--pack", "pack.zip", "--json"]),
            ("forge fsck --json", ["fsck", "out", "--json"]),
            ("forge check --json", ["check", "out", "--json"]),
            ("forge verify --json", ["verify", "out", "--json"]),
        ]
        for command in commands {
            let result = try project.forge(command.arguments)
            printed[command.name, default: []].formUnion(Self.paths(try Self.report(result)))
        }

        // A build that cannot run still ends with a summary: its exit code and error.
        try project.directory.write("blocked", "a file where the output directory should be")
        try project.directory.write("blocked.json", Fixtures.recipe(output: "blocked"))
        let blocked = try project.forge(["build", "blocked.json", "--json"])
        #expect(blocked.status == 3, "\(blocked.text) \(blocked.errors)")
        #expect(blocked.summary?["error"] != nil, "\(blocked.text)")
        record(blocked)

        try FileManager.default.copyItem(
            at: NarrationMismatchTests.recording, to: project.directory.file("recording.flac"))
        try FileManager.default.copyItem(
            at: NarrationMismatchTests.transcript, to: project.directory.file("recording.txt"))
        let narration = try project.forge([
            "align", "narration", "--audio", "recording.flac", "--text", "recording.txt", "--output", "narrated",
            "--json",
        ])
        #expect(narration.status == 0, "\(narration.errors)")
        record(narration)

        // What this run must have seen, so that an empty output cannot pass.
        let expected = Set([
            "started", "split", "planned", "item", "saved", "phase", "exporting", "verified", "summary", "aligning",
            "narration",
        ])
        .union(commands.map(\.name))
        #expect(expected.isSubset(of: Set(printed.keys)), "not printed: \(expected.subtracting(printed.keys).sorted())")
        for (section, keys) in printed.sorted(by: { $0.key < $1.key }) {
            let listed = documented[section] ?? []
            #expect(
                keys.isSubset(of: listed),
                "docs/json.md does not list, under \(section): \(keys.subtracting(listed).sorted())")
        }
    }

    /// Every key docs/json.md lists for an event is one that event's encoding writes (each event
    /// made here with every optional field set), and every top-level key it lists for a report or
    /// the summary is a property of its output type.
    @Test func everyDocumentedKeyIsOneForgeCanPrint() throws {
        let documented = try Self.documentedKeys()
        func topLevel(_ section: String) -> Set<String> {
            Set((documented[section] ?? []).filter { !$0.contains(".") && !$0.contains("[") })
        }
        func keys(_ value: some Encodable) throws -> Set<String> {
            let object = try JSONSerialization.jsonObject(with: JSONOutput.line(value)) as? [String: Any]
            return Set(object?.keys ?? [String: Any]().keys)
        }
        func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }

        let chunk = ChunkReport(
            chapter: 1, startMs: 0, endMs: 120_000, wordErrorRate: 0.1, referenceWords: 10, errors: 1,
            flaggedItems: [.init(itemID: "ch001-p0001", missingWords: ["word"])], transcribed: true)
        let item = ItemProgress(
            itemID: "ch001-p0001", ordinal: 1, outcome: .failed, error: "why", finished: 1, toFinish: 2, audioMs: 1_000,
            durationMs: 1_000,
            elapsedSeconds: 1)
        let events: [String: ProgressEvent] = [
            "started": .started(buildID: 1, outputDirectory: "out"),
            "split": .split(chapters: 1, items: 2, words: 3, changedItems: 0),
            "planned": .planned(upToDate: 0, toSynthesize: 1, toReuse: 0, toAlign: 1),
            "remoteCache": .remoteCache(looked: 2, found: 1, bytes: 10),
            "uploaded": .uploaded(items: 1, bytes: 10),
            "item": .item(item),
            "saved": .saved(committedItems: 1),
            "phase": .phase("verify"),
            "exporting": .exporting(
                ExportProgress(phase: "acx", done: 1, total: 3, finishedMs: 1_000, toFinishMs: 3_000)),
            "verified": .verified(chunk),
            "cancelling": .cancelling,
            "warning": .diagnostic(
                Diagnostic(.warning, "message", file: "f", line: 1, field: "voice.rate", item: "i", suggestion: "s")),
            "error": .diagnostic(
                Diagnostic(.error, "message", file: "f", line: 1, field: "voice.rate", item: "i", suggestion: "s")),
            "note": .diagnostic(
                Diagnostic(.note, "message", file: "f", line: 1, field: "voice.rate", item: "i", suggestion: "s")),
        ]
        for (name, event) in events {
            #expect(BuildEventJSON(event).name == name)
            #expect(try keys(BuildEventJSON(event)) == topLevel(name), "the \(name) event")
        }

        // Output types: every property (set or not) against the documented top-level keys.
        let failure = CommandFailure(RecipeError.unreadable(file: "recipe.json", reason: "gone"))
        #expect(labels(BuildSummaryJSON(failure, outputDirectory: "out")) == topLevel("summary"))
        #expect(labels(AligningEventJSON(fraction: 0.5)) == topLevel("aligning"))
        #expect(
            labels(
                ExportReportJSON(
                    ExportReport(files: [], chapters: 0, durationMs: 0), output: "out", elapsedSeconds: 0, pack: nil,
                    packItems: nil))
                == topLevel("forge export --json"))
        let levels = AudioLevels(
            integratedLoudness: -20, loudnessRange: 3, samplePeak: -1, truePeak: -1, rms: -22, noiseFloor: -70,
            headSilenceMs: 0,
            tailSilenceMs: 0, durationMs: 1_000)
        let verify = VerifyReport(
            available: true, chunks: [chunk], recognizer: "pocketsphinx", elapsedSeconds: 1, audioMs: 1_000)
        let reports: [(section: String, value: Any)] = [
            (
                "narration",
                NarrationReportJSON(
                    NarrationReport(
                        outputDirectory: "out", items: 1, words: 1, durationMs: 1, unheard: [], reusedAlignment: false,
                        exportedFiles: [], elapsedSeconds: 1))
            ),
            (
                "forge plan --json",
                PlanReportJSON(
                    PlanReport(
                        recipePath: "recipe.json", outputDirectory: "out", chapters: [], items: 0, words: 0,
                        itemsBuilt: 0, itemsToSynthesize: 0,
                        durationMs: 0, wordsPerMinute: 175))
            ),
            (
                "forge status --json",
                StatusReportJSON(StatusReport(outputDirectory: "out", counts: ManifestCounts(), lastBuild: nil))
            ),
            (
                "forge fsck --json",
                AuditReportJSON(
                    AuditReport(
                        outputDirectory: "out", objectsChecked: 0, bytesChecked: 0, itemsChecked: 0, problems: []),
                    repaired: false,
                    elapsedSeconds: 0)
            ),
            (
                "forge check --json",
                ConformanceReportJSON(
                    ConformanceReport(
                        profile: .acx, chapters: [], book: levels, elapsedSeconds: 0, measuredChapters: 0))
            ),
            ("forge verify --json", VerifyReportJSON(verify)),
        ]
        for report in reports {
            #expect(labels(report.value) == topLevel(report.section), "\(report.section)")
        }
    }
}
