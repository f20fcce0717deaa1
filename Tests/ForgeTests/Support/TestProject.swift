import Foundation
import Testing

@testable import Forge

/// A book, a recipe and an output directory in a temp folder, built with the real forge.
final class TestProject {
    let directory: TemporaryDirectory
    var output: URL { directory.file("out") }

    init(book: String = Fixtures.shortBook, recipe: String = Fixtures.recipe()) throws {
        directory = try TemporaryDirectory("project")
        try directory.write("book.txt", book)
        try directory.write("recipe.json", recipe)
    }

    func write(book: String) throws { try directory.write("book.txt", book) }
    func write(recipe: String) throws { try directory.write("recipe.json", recipe) }

    func forge(_ arguments: [String], environment: [String: String] = [:]) throws -> ForgeResult {
        try ForgeProcess.run(arguments, in: directory.url, environment: environment)
    }

    func build(_ extra: [String] = [], environment: [String: String] = [:]) throws -> ForgeResult {
        try forge(["build", "recipe.json", "--json"] + extra, environment: environment)
    }

    func start(_ arguments: [String] = ["build", "recipe.json", "--json"]) throws -> ForgeProcess {
        try ForgeProcess(arguments, in: directory.url)
    }

    func manifest() throws -> Manifest { try Manifest(directory: output, create: false) }

    func doneItems() throws -> Set<String> {
        Set(try manifest().items().filter { $0.status == .done }.map(\.id))
    }

    func temporaryFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("objects/tmp").path)) ?? []
    }

    /// Checks what a build promises after any interruption (in `directory`, the project's output by
    /// default): the database is sound, and every item the manifest calls done has its objects, with the recorded hashes, and full word timings.
    func checkConsistency(of directory: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = directory ?? output
        let manifest = try Manifest(directory: output, create: false)
        #expect(try manifest.integrityCheck() == "ok", sourceLocation: sourceLocation)
        let items = try manifest.items().filter { $0.status == .done }
        let objects = try manifest.objects(withKeys: items.flatMap { [$0.audioKey ?? "", $0.eventsKey ?? ""] })
        let store = ObjectStore(root: output)
        // Audio a build left in the remote cache is recorded, not stored.
        let remote = try manifest.remoteObjectKeys()
        for item in items {
            for key in [item.audioKey, item.eventsKey] {
                guard let key, let object = objects[key] else {
                    Issue.record("item \(item.id) is done but has no object record", sourceLocation: sourceLocation)
                    continue
                }
                if remote.contains(key) && !store.contains(relativePath: object.path) { continue }
                let hash = try ContentHash.sha256Hex(fileAt: store.url(forRelativePath: object.path))
                #expect(
                    hash == object.sha256, "object \(object.path) does not match its hash",
                    sourceLocation: sourceLocation)
            }
            let timings = try manifest.timings(of: item.id)
            #expect(!timings.contains(nil), "item \(item.id) has words without timings", sourceLocation: sourceLocation)
            var previous = -1
            for timing in timings.compactMap({ $0 }) {
                #expect(timing.startMs > previous && timing.endMs > timing.startMs, sourceLocation: sourceLocation)
                #expect(
                    timing.endMs <= (item.durationMs ?? 0), "word past the end of item \(item.id)",
                    sourceLocation: sourceLocation)
                previous = timing.startMs
            }
        }
    }
}
