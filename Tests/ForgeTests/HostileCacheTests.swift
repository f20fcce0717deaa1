import Foundation
import Testing

@testable import Forge

/// A build against a hostile cache server (scripts/hostile-cache-server.py on 127.0.0.1) finishes
/// with the same audio as a build without a cache, in bounded memory and time (docs/security.md).
@Suite("Hostile cache server")
struct HostileCacheTests {
    /// One server and one honest build that filled it, shared by every mode.
    final class Fixture: Sendable {
        let server: HostileCacheServer
        let directory: TemporaryDirectory
        /// The audio digest of every item, from a build that made them all here.
        let digests: [String: String]
        /// How long that build took: a hostile build may take this, plus its bounded waits.
        let localSeconds: Double

        init() throws {
            server = try HostileCacheServer()
            let project = try TestProject(recipe: HostileCacheTests.recipe)
            directory = project.directory
            let started = Date()
            // One worker: an item's bytes must not depend on scheduling for the comparison below.
            let honest = try project.build(["--remote-cache", server.url("honest"), "--jobs", "1"])
            localSeconds = Date().timeIntervalSince(started)
            guard honest.status == 0, HostileCacheTests.int(honest.summary, "uploaded") > 0 else {
                throw CacheServer.ServerError.notStarted(log: "the honest build failed: \(honest.errors)")
            }
            digests = try HostileCacheTests.audioDigests(project.output)
        }
    }

    static let fixture = Result { try Fixture() }

    // Short bounds, so a server that stalls costs each case seconds, not the defaults' minutes.
    static let recipe = Fixtures.recipe(
        jobs: 1,
        extra:
            "\"cache\": { \"remote\": \"http://127.0.0.1:9/unused\", \"timeoutSeconds\": 2, \"connectTimeoutSeconds\": 2, \"deadlineSeconds\": 4 }"
    )

    static func int(_ summary: [String: Any]?, _ key: String) -> Int { summary?[key] as? Int ?? -1 }

    static func audioDigests(_ output: URL) throws -> [String: String] {
        let manifest = try Manifest(directory: output, create: false)
        let items = try manifest.items()
        let objects = try manifest.objects(withKeys: items.compactMap(\.audioKey))
        return Dictionary(uniqueKeysWithValues: items.map { ($0.id, objects[$0.audioKey ?? ""]?.sha256 ?? "") })
    }

    @Test(arguments: [
        "oversized", "endless", "wrong-length", "truncated", "slowloris", "stalled-headers", "trickle", "redirect",
        "error-storm", "garbage-entry", "huge-entry", "hostile-metadata",
    ])
    func aHostileServerCostsBoundedTimeAndMemoryAndChangesNoByte(mode: String) throws {
        let fixture = try Self.fixture.get()
        let output = "out-\(mode)"
        let started = Date()
        let forge = try ForgeProcess(
            [
                "build", "recipe.json", "--json", "--remote-cache", fixture.server.url(mode),
                "--remote-cache-read-only", "-o", output,
            ],
            in: fixture.directory.url, measuringPeakMemory: true)
        let (result, peak) = forge.waitMeasuringPeakMemory()
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(mode): \(result.errors)")
        #expect(
            try Self.audioDigests(fixture.directory.file(output)) == fixture.digests,
            "\(mode): other audio than a build without a cache")
        #expect(peak > 0 && peak < 200 << 20, "\(mode): peak RSS \(peak >> 20) MB")
        // The bounds (4 s deadline, 2 s windows) plus a local build, with room for a loaded machine.
        #expect(seconds < 4 + fixture.localSeconds * 3 + 10, "\(mode): \(seconds) s")
        let warnings = result.events("warning").compactMap { $0["message"] as? String }
        #expect(!warnings.isEmpty && warnings.count <= 7, "\(mode): \(warnings)")
        #expect(
            !warnings.joined().unicodeScalars.contains { $0.properties.generalCategory == .control },
            "a server's text reached a message unescaped")
        print(
            "hostile cache \(mode): exit \(result.status), \(String(format: "%.1f", seconds)) s, peak RSS \(peak >> 20) MB, \(warnings.count) warning(s)"
        )
        if mode == "hostile-metadata" {
            let voices = try Set(
                Manifest(directory: fixture.directory.file(output), create: false).items().compactMap(\.voice))
            #expect(voices == ["espeak-ng:en-us?rate=175&pitch=50&volume=100"], "\(voices)")
        }
    }

    @Test func anHonestServerServesEveryItem() throws {
        let fixture = try Self.fixture.get()
        let result = try ForgeProcess.run(
            [
                "build", "recipe.json", "--json", "--remote-cache", fixture.server.url("honest"), "-o",
                "out-honest-again",
            ], in: fixture.directory.url)
        #expect(result.status == 0 && result.events("warning").isEmpty, "\(result.errors)")
        #expect(RemoteCacheTests.allFromCache(result.summary, items: fixture.digests.count), "\(result.summary ?? [:])")
        #expect(try Self.audioDigests(fixture.directory.file("out-honest-again")) == fixture.digests)
    }

    @Test func aHeaderWithALineBreakIsRefusedWithExit2() throws {
        let project = try TestProject()
        for value in [
            "Authorization: Bearer a\r\nX-Evil: 1", "Authorization: Bearer a\nb", "Authorization: Bearer\u{7}",
        ] {
            let result = try project.build(
                ["--remote-cache", "http://127.0.0.1:9/forge"], environment: [RemoteCacheSettings.headerVariable: value]
            )
            #expect(result.status == 2, "\(result.errors)")
            #expect(
                result.errors.contains(RemoteCacheSettings.headerVariable) && result.errors.contains("line breaks"),
                "\(result.errors)")
            #expect(
                !result.errors.contains("Bearer a") && !result.errors.contains("X-Evil"),
                "the header's value is never printed")
        }
    }

    @Test func aSpotCheckCatchesAnEntryThatNamesAnotherItemsAudio() throws {
        let fixture = try Self.fixture.get()
        let result = try ForgeProcess.run(
            [
                "build", "recipe.json", "--json", "--remote-cache", fixture.server.url("swapped"),
                "--remote-cache-read-only", "-o", "out-swapped",
            ],
            in: fixture.directory.url)
        #expect(result.status == 0, "\(result.errors)")
        #expect(Self.int(result.summary, "spotCheckMismatches") >= 1, "\(result.summary ?? [:])")
        let warnings = result.events("warning").compactMap { $0["message"] as? String }
        #expect(
            warnings.contains { $0.contains("made here it is") && $0.contains(fixture.server.url("swapped")) },
            "\(warnings)")
        // The item checked has the bytes made here, which are the right ones.
        let manifest = try Manifest(directory: fixture.directory.file("out-swapped"), create: false)
        let checked = try #require(
            try manifest.items().min {
                SpeechCache.spotCheckDigest($0.audioKey ?? "") < SpeechCache.spotCheckDigest($1.audioKey ?? "")
            })
        #expect(try Self.audioDigests(fixture.directory.file("out-swapped"))[checked.id] == fixture.digests[checked.id])
    }
}
