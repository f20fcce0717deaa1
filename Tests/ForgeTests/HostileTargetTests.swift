import Foundation
import Testing

@testable import Forge

/// Paths a user names that forge must not harm (`--pack`, `say -o`) and sources that are not
/// files, or too large to read safely: refused with exit 2 at once, nothing touched.
@Suite("Hostile targets and sources")
struct HostileTargetTests {
    static func digest(_ url: URL) -> String { (try? ContentHash.sha256Hex(fileAt: url)) ?? "missing" }

    static func type(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func aPackOrSpeechNeverReplacesTheStoreADeviceOrAFIFO() throws {
        let project = try TestProject()
        let built = try project.build()
        try #require(built.status == 0, "\(built.errors)")
        let manifest = project.output.appendingPathComponent(Manifest.fileName)
        let object = try #require(
            try project.manifest().objects(withKeys: project.manifest().items().compactMap(\.audioKey)).values.first)
        let objectURL = project.output.appendingPathComponent(object.path)
        let fifo = project.directory.file("pipe.zip")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let before = [Self.digest(manifest), Self.digest(objectURL)]

        let targets = [
            manifest.path, objectURL.path, project.output.appendingPathComponent(".forge.lock").path, "out",
            "out/../out/manifest.sqlite", fifo.path, "/dev/full", "/dev/null",
        ]
        for target in targets {
            let started = Date()
            let result = try project.forge(["export", "out", "--pack", target])
            #expect(result.status == 2, "\(target): \(result.errors)")
            #expect(result.errors.contains("not written"), "\(target): \(result.errors)")
            #expect(Date().timeIntervalSince(started) < 10)
        }
        #expect([Self.digest(manifest), Self.digest(objectURL)] == before, "the store was written")
        #expect(Self.type("/dev/full") == S_IFCHR && Self.type("/dev/null") == S_IFCHR, "a device was replaced")
        #expect(Self.type(fifo.path) == S_IFIFO)
        #expect(try project.forge(["fsck", "out"]).status == 0)

        // say's target must end in an audio extension: a FIFO so named, and a link to a device.
        let speechFIFO = project.directory.file("pipe.wav")
        #expect(mkfifo(speechFIFO.path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: project.directory.file("full.wav").path, withDestinationPath: "/dev/full")
        for target in ["pipe.wav", "full.wav"] {
            let started = Date()
            let say = try project.forge(["say", "Hello.", "--output", target])
            #expect(say.status != 0 && say.errors.contains("not a regular file"), "\(target): \(say.errors)")
            #expect(Date().timeIntervalSince(started) < 10)
        }
        #expect(Self.type("/dev/full") == S_IFCHR && Self.type(speechFIFO.path) == S_IFIFO)

        // Under exports/, and over a regular file, a pack is written.
        try FileManager.default.createDirectory(
            at: project.output.appendingPathComponent("exports"), withIntermediateDirectories: true)
        let allowed = try project.forge(["export", "out", "--pack", "out/exports/pack.zip"])
        #expect(allowed.status == 0, "\(allowed.errors)")
        try project.directory.write("old.zip", "an old pack")
        #expect(try project.forge(["export", "out", "--pack", "old.zip"]).status == 0)
        let older = try project.directory.write("older.zip", "an old pack")
        #expect(Self.digest(project.directory.file("old.zip")) != Self.digest(older))
    }

    @Test func sourcesThatAreNotFilesOrTooLargeAreRefusedAtOnce() throws {
        let project = try TestProject()
        try FileManager.default.removeItem(at: project.directory.file("book.txt"))
        #expect(mkfifo(project.directory.file("book.txt").path, 0o644) == 0)
        for command in ["plan", "build"] {
            let started = Date()
            let result = try project.forge([command, "recipe.json"])
            #expect(result.status == 2 && result.errors.contains("named pipe"), "\(command): \(result.errors)")
            #expect(Date().timeIntervalSince(started) < 5)
        }
        try project.write(recipe: Fixtures.recipe(source: "/dev/zero"))
        let started = Date()
        let zero = try project.forge(["plan", "recipe.json", "--allow-outside-paths"])
        #expect(zero.status == 2 && zero.errors.contains("a device"), "\(zero.errors)")
        #expect(Date().timeIntervalSince(started) < 5)

        // One 40 MB line (over 8 MiB): refused before it is split, in memory of the order of the input.
        try FileManager.default.removeItem(at: project.directory.file("book.txt"))
        try Data(String(repeating: "word ", count: 8_000_000).utf8).write(to: project.directory.file("book.txt"))
        try project.write(recipe: Fixtures.recipe())
        let forge = try ForgeProcess(["plan", "recipe.json"], in: project.directory.url, measuringPeakMemory: true)
        let (line, peak) = forge.waitMeasuringPeakMemory()
        #expect(
            line.status == 2 && line.errors.contains("book.txt:1: this line is 40000000 bytes long"), "\(line.errors)")
        #expect(peak > 0 && peak < 3 * 40_000_000, "peak RSS \(peak >> 20) MB for a 38 MB source")
    }

    @Test func fsckCallsALinkedObjectFolderALinkAndRepairRemovesOnlyTheLink() throws {
        let project = try TestProject()
        let built = try project.build()
        try #require(built.status == 0, "\(built.errors)")
        let elsewhere = try TemporaryDirectory("victim")
        try elsewhere.write("keep.txt", "keep")
        let link = project.output.appendingPathComponent("objects/zz")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere.url)
        let fsck = try project.forge(["fsck", "out"])
        #expect(fsck.status == 1)
        #expect(
            fsck.text.contains("objects/zz: a symbolic link") && !fsck.text.contains("objects/zz: orphan"),
            "\(fsck.text)")
        #expect(try project.forge(["fsck", "--repair", "out"]).status != 2)
        #expect(Self.type(link.path) == 0 && FileManager.default.fileExists(atPath: elsewhere.file("keep.txt").path))
    }

    @Test func anOutputDirectoryRenamedDuringABuildGetsNoMoreWritesAtItsOldName() throws {
        let project = try TestProject(book: Fixtures.longerText, recipe: Fixtures.recipe(jobs: 1))
        let forge = try project.start()
        #expect(forge.waitForLines(count: 5) { $0.contains("\"event\":\"item\"") })
        let moved = project.directory.file("moved")
        try FileManager.default.moveItem(at: project.output, to: moved)
        let result = forge.wait()
        #expect(result.status == 3, "\(result.errors)")
        #expect(result.errors.contains("was moved or replaced while forge was writing it"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: project.output.path), "writes went on at the old name")
        // Everything the build recorded is in the directory where it now is, whole.
        try project.checkConsistency(of: moved)
        #expect(try Manifest(directory: moved, create: false).items().contains { $0.status == .done })
    }
}
