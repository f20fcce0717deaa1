import Foundation
import Testing

/// The library's folders are layers: a folder may use the types of folders below it, never of one
/// that uses it (docs/architecture.md draws the graph).
@Suite("Architecture")
struct ArchitectureTests {
    /// Sources/Forge, found from this file's own path.
    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Forge")

    /// Swift source with comments and string literals blanked out, so only code names types.
    static func code(_ source: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(source.unicodeScalars)
        var index = 0
        var blockDepth = 0
        var inString = false
        var multiline = false
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : " "
            if blockDepth > 0 {
                if scalar == "*" && next == "/" {
                    blockDepth -= 1
                    index += 2
                    continue
                }
                if scalar == "/" && next == "*" {
                    blockDepth += 1
                    index += 2
                    continue
                }
                if scalar == "\n" { result.append("\n") }
                index += 1
                continue
            }
            if inString {
                if scalar == "\\" {
                    index += 2
                    continue
                }
                if multiline, scalar == "\"", index + 2 < scalars.count, scalars[index + 1] == "\"",
                    scalars[index + 2] == "\""
                {
                    inString = false
                    index += 3
                    continue
                }
                if !multiline, scalar == "\"" {
                    inString = false
                    index += 1
                    continue
                }
                if scalar == "\n" { result.append("\n") }
                index += 1
                continue
            }
            if scalar == "/" && next == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
                continue
            }
            if scalar == "/" && next == "*" {
                blockDepth = 1
                index += 2
                continue
            }
            if scalar == "\"" {
                multiline = index + 2 < scalars.count && scalars[index + 1] == "\"" && scalars[index + 2] == "\""
                inString = true
                index += multiline ? 3 : 1
                result.append(" ")
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    /// Each folder's uses of other folders' types: folder → folder → the type names.
    static func folderGraph() throws -> [String: [String: Set<String>]] {
        var files: [(folder: String, code: String)] = []
        let enumerator = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = url.path.dropFirst(library.path.count + 1).split(separator: "/")
            let folder = relative.count > 1 ? String(relative[0]) : "(top)"
            files.append((folder, code(try String(contentsOf: url, encoding: .utf8))))
        }
        // Types declared at the top level of a file belong to its folder.
        let declaration =
            /^(?:(?:public|package|internal|private|fileprivate|final|indirect|@\w+)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)/
            .anchorsMatchLineEndings()
        var owner: [String: String] = [:]
        for file in files {
            for match in file.code.matches(of: declaration) { owner[String(match.1)] = file.folder }
        }
        var graph: [String: [String: Set<String>]] = [:]
        for file in files {
            // Every identifier (not `\b`: Unicode word boundaries make "Splitter.self" one word).
            for match in file.code.matches(of: /[A-Za-z_][A-Za-z0-9_]*/) {
                let name = String(match.0)
                guard let other = owner[name], other != file.folder else { continue }
                graph[file.folder, default: [:]][other, default: []].insert(name)
            }
        }
        return graph
    }

    /// A cycle of folders (first == last), or nil.
    static func cycle(in graph: [String: [String: Set<String>]]) -> [String]? {
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        var path: [String] = []
        func visit(_ folder: String) -> [String]? {
            if state[folder] == 2 { return nil }
            if state[folder] == 1 { return Array(path[path.firstIndex(of: folder)!...]) + [folder] }
            state[folder] = 1
            path.append(folder)
            for next in (graph[folder] ?? [:]).keys.sorted() {
                if let found = visit(next) { return found }
            }
            path.removeLast()
            state[folder] = 2
            return nil
        }
        for folder in graph.keys.sorted() {
            if let found = visit(folder) { return found }
        }
        return nil
    }

    @Test func theLibrarysFoldersDependOnEachOtherWithoutCycles() throws {
        let graph = try Self.folderGraph()
        #expect(graph.count >= 10, "the scan found too few folders that use others under \(Self.library.path)")
        if let cycle = Self.cycle(in: graph) {
            let steps = zip(cycle, cycle.dropFirst()).map {
                "\($0) → \($1) (\(graph[$0]![$1]!.sorted().prefix(4).joined(separator: ", ")))"
            }
            Issue.record("the folders depend on each other in a cycle: \(steps.joined(separator: "; "))")
        }
    }

    /// docs/architecture.md's layer table: each folder, in order, the folders its row lists ("—":
    /// none), and the listed names that are not folders above it.
    static func layerTable() throws -> [(folder: String, uses: Set<String>, misplaced: [String])] {
        var rows: [(folder: String, uses: Set<String>, misplaced: [String])] = []
        for line in try architectureDocument().split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            let folder = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let before = Set(rows.map(\.folder))
            let listed =
                cells[3] == "—"
                ? []
                : cells[3].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            rows.append((folder, Set(listed), listed.filter { !before.contains($0) }))
        }
        return rows
    }

    static func architectureDocument() throws -> String {
        try String(
            contentsOf: library.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "docs/architecture.md"), encoding: .utf8)
    }

    /// The layer table says what is so: each folder's row lists exactly the folders whose types it
    /// uses, each of them above it (so the layers have no cycle), and every folder has a row. A type
    /// used across a line the table does not draw fails here naming the type; a line drawn that
    /// nothing uses any more fails too.
    @Test func eachFolderUsesExactlyWhatItsRowInTheLayerTableLists() throws {
        let table = try Self.layerTable()
        #expect(table.count >= 15, "the layer table of docs/architecture.md was not found")
        let graph = try Self.folderGraph()
        let rows = Dictionary(table.map { ($0.folder, $0) }, uniquingKeysWith: { first, _ in first })
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.library.path).filter {
            !$0.hasSuffix(".swift")
        }
        for folder in folders.sorted() {
            guard let row = rows[folder] else {
                Issue.record("Sources/Forge/\(folder) has no row in docs/architecture.md's layer table")
                continue
            }
            for name in row.misplaced {
                Issue.record("\(folder)'s row lists \(name), which is not a folder above it in the layer table")
            }
            let used = graph[folder] ?? [:]
            for (other, types) in used.sorted(by: { $0.key < $1.key }) where !row.uses.contains(other) {
                Issue.record(
                    "\(folder) uses \(other) (\(types.sorted().prefix(4).joined(separator: ", "))), which its row in docs/architecture.md does not list"
                )
            }
            for other in row.uses.sorted() where used[other] == nil && !row.misplaced.contains(other) {
                Issue.record("\(folder)'s row in docs/architecture.md lists \(other), which it does not use")
            }
        }
    }

    /// Each folder has one error enum, or says in docs/architecture.md why it has another: an
    /// enum named there, or none.
    @Test func aFoldersSecondErrorEnumIsNamedInTheArchitectureDocument() throws {
        let document = try Self.architectureDocument()
        var enums: [String: [String]] = [:]
        let enumerator = FileManager.default.enumerator(at: Self.library, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let folder = String(url.path.dropFirst(Self.library.path.count + 1).split(separator: "/")[0])
            let code = Self.code(try String(contentsOf: url, encoding: .utf8))
            for match in code.matches(of: /(?m)^(?:package |public )?enum ([A-Z]\w*Error)\b/) {
                enums[folder, default: []].append(String(match.1))
            }
        }
        #expect(enums.count >= 10, "the scan found too few error enums")
        for (folder, names) in enums.sorted(by: { $0.key < $1.key }) where names.count > 1 {
            for name in names.sorted() where !document.contains("`\(name)`") {
                Issue.record("\(folder) has \(names.count) error enums; docs/architecture.md does not name \(name)")
            }
        }
    }

    /// Every error enum of the library says which kind of failure each case is (so the compiler
    /// makes a new case choose its exit code): one `extension …Error: ClassifiedFailure` per enum.
    @Test func everyErrorEnumClassifiesItsCases() throws {
        let enumerator = FileManager.default.enumerator(at: Self.library, includingPropertiesForKeys: nil)
        var enums: [String] = []
        var classified: Set<String> = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            // Declarations start their lines (the blanked code would lose some after a string that
            // interpolates a quoted literal).
            let source = try String(contentsOf: url, encoding: .utf8)
            enums += source.matches(
                of: /^(?:package |public |private |fileprivate )?enum (\w+Error)\b/.anchorsMatchLineEndings()
            ).map { String($0.1) }
            classified.formUnion(
                source.matches(of: /^extension (\w+Error): ClassifiedFailure/.anchorsMatchLineEndings()).map {
                    String($0.1)
                })
        }
        #expect(enums.count >= 14, "the scan found too few error enums under \(Self.library.path)")
        #expect(
            Set(enums).subtracting(classified).isEmpty,
            "error enums without a failure kind: \(Set(enums).subtracting(classified).sorted())")
    }

    @Test func theCycleCheckFindsACycle() {
        let graph = [
            "Speech": ["Store": Set(["ObjectStore"])], "Store": ["Recipe": ["VoiceSettings"]],
            "Recipe": ["Speech": ["EspeakEngine"]],
        ]
        #expect(Self.cycle(in: graph) == ["Recipe", "Speech", "Store", "Recipe"])
        #expect(Self.cycle(in: ["Pipeline": ["Store": ["Manifest"]]]) == nil)
    }

    @Test func onlyTheSpeechFolderNamesAnEngine() throws {
        // Engines differ by their capabilities, not by name checks spread through the pipeline.
        let enumerator = FileManager.default.enumerator(at: Self.library, includingPropertiesForKeys: nil)
        var offenders: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/Speech/") else { continue }
            let code = Self.code(try String(contentsOf: url, encoding: .utf8))
            if code.contains("EspeakEngine.engineName") || code.contains(".isEspeak")
                || code.contains("commandEngine {")
            {
                offenders.append(url.lastPathComponent)
            }
        }
        #expect(offenders.isEmpty, "engine name checks outside Speech/: \(offenders)")
    }

    /// Each C library is wrapped by one Swift type: its `C…` module is imported only by that type's
    /// file and the type's extensions (`EspeakEngine.swift`, `EspeakEngine+Forked.swift`), so the
    /// rest of the library sees Swift types, and a second file calling the C API fails here.
    @Test func eachCModuleIsImportedByOneWrapper() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.library.deletingLastPathComponent().path)
            .filter {
                $0.hasPrefix("C")
                    && FileManager.default.fileExists(
                        atPath: Self.library.deletingLastPathComponent().appendingPathComponent(
                            "\($0)/module.modulemap"
                        ).path)
            }
        #expect(modules.count >= 9, "the C modules in Sources/ were not found: \(modules)")
        var importers: [String: [String]] = [:]
        let files =
            FileManager.default.enumerator(at: Self.library, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            for line in source.split(separator: "\n") where line.hasPrefix("import C") {
                let module = String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
                guard modules.contains(module) else { continue }
                importers[module, default: []].append(
                    file.path.replacingOccurrences(of: Self.library.path + "/", with: ""))
            }
        }
        for module in modules.sorted() {
            let paths = (importers[module] ?? []).sorted()
            // The wrapper's type: each file's name up to any "+Feature".
            let types = Set(
                paths.map {
                    ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".swift", with: "").split(
                        separator: "+")[0]
                })
            let folders = Set(paths.map { ($0 as NSString).deletingLastPathComponent })
            #expect(
                types.count == 1 && folders.count == 1,
                "\(module) is imported by \(paths.joined(separator: ", ")): one wrapper type's files only")
        }
    }

    /// Every sound is made by a synthesis worker: outside Speech/ (the engines) and Workers/ (the
    /// worker that runs them), nothing in the library synthesizes — an export reads the ACX credits
    /// from the store, where a worker spoke them. The one exception is the speak stage's requests
    /// to speech services (`StageWork+SpeechService.swift`): their work is waiting on a network, and
    /// their limits hold for the build as a whole, so they run in the build's own process. The other
    /// is a sync's own reading of the book (`BookReading.swift`): never stored or exported, only its
    /// spectra are kept, and it is spoken while the process's other thread reads the recording.
    @Test func onlyTheWorkersSynthesize() throws {
        let enumerator = FileManager.default.enumerator(at: Self.library, includingPropertiesForKeys: nil)
        var offenders: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/Speech/"), !url.path.contains("/Workers/"),
                url.lastPathComponent != "StageWork+SpeechService.swift", url.lastPathComponent != "BookReading.swift"
            else {
                continue
            }
            if Self.code(try String(contentsOf: url, encoding: .utf8)).contains(".synthesize(") {
                offenders.append(url.lastPathComponent)
            }
        }
        #expect(offenders.isEmpty, "synthesis outside the workers: \(offenders)")
    }

    /// The library's errors say what to do in words; only the command line names its flags and
    /// commands (ForgeCLI's `CommandAdvice`), so the library's messages hold for any caller.
    @Test func theLibrarysErrorsNameNoCommandLineFlagsOrCommands() throws {
        let enumerator = FileManager.default.enumerator(at: Self.library, includingPropertiesForKeys: nil)
        let flag = /[\s(]--[a-z][a-z-]+|`forge [a-z]+|\brun forge\b/
        var offenders: [String] = []
        var scanned = 0
        while let url = enumerator?.nextObject() as? URL {
            guard url.lastPathComponent.hasSuffix("Error.swift") else { continue }
            scanned += 1
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("//"), trimmed.contains("\""), line.contains(flag) else { continue }
                offenders.append("\(url.lastPathComponent): \(trimmed.prefix(100))")
            }
        }
        #expect(scanned >= 10, "the scan found too few error types under \(Self.library.path)")
        #expect(offenders.isEmpty, "errors naming the command line: \(offenders)")
    }
}
