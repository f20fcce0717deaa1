import Foundation

/// Reads a recipe file, checks it against the v1 schema and resolves its paths.
///
/// Nothing is written and no work starts until a recipe has loaded: every problem is
/// reported as a ``RecipeError`` naming the file and JSON path.
package struct RecipeLoader: Sendable {
    /// The largest recipe file accepted.
    package static let maximumRecipeBytes = 1 << 20
    /// The most read from standard input for a `-` source.
    package static let maximumStandardInputBytes = 256 << 20

    package init() {}

    /// Loads and validates the recipe at `url`.
    /// - Parameter outputOverride: an output directory given on the command line (`--output`),
    ///   which replaces `output.directory`; relative to the current directory.
    /// - Parameter allowOutsidePaths: accept sources and an output directory outside the project
    ///   (see ``ProjectBoundary``); off by default, so an untrusted recipe cannot reach out.
    package func load(from url: URL, outputOverride: URL? = nil, allowOutsidePaths: Bool = false) throws(RecipeError)
        -> Recipe
    {
        let url = url.standardizedFileURL
        let name = url.path
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            if (attributes[.type] as? FileAttributeType) == .typeDirectory {
                throw RecipeError.unreadable(file: name, reason: "it is a directory, not a JSON file")
            }
            if let size = attributes[.size] as? Int, size > Self.maximumRecipeBytes {
                throw RecipeError.tooLarge(file: name, bytes: size, limit: Self.maximumRecipeBytes)
            }
            data = try Data(contentsOf: url)
        } catch let error as RecipeError {
            throw error
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: url.path) ? "permission denied or unreadable" : "no such file"
            throw .unreadable(file: name, reason: reason)
        }
        return try parse(data, file: url, outputOverride: outputOverride, allowOutsidePaths: allowOutsidePaths)
    }

    /// Validates recipe JSON given as bytes; `file` names it in messages and anchors relative paths.
    package func parse(_ data: Data, file: URL, outputOverride: URL? = nil, allowOutsidePaths: Bool = false)
        throws(RecipeError) -> Recipe
    {
        let name = file.path
        let root: JSONValue
        do {
            root = try JSONParser().parse([UInt8](data))
        } catch {
            throw .syntax(file: name, line: error.line, column: error.column, message: error.message)
        }
        let top = try RecipeObjectReader<Recipe.Key>(root, file: name, path: "")
        let folder = file.deletingLastPathComponent()

        _ = try top.integer(.version, in: 1...1, default: 1)
        let title = try top.string(.title)
        if let title, title.count > ExportSettings.maximumTitleCharacters {
            throw .invalidValue(
                file: name, path: top.fieldPath(.title), found: "a title of \(title.count) characters",
                allowed: "at most \(ExportSettings.maximumTitleCharacters) characters (it names the exported files)")
        }
        let explicitLanguage = try top.nonEmptyString(.language, default: "")
        let sources = top.value(.sources) == nil && top.value(.items) != nil ? [] : try readSources(top, folder: folder)
        // Every file is checked against the project before it is opened (the language of an HTML
        // or EPUB source is read just below; a lexicon is parsed further down).
        let boundary = allowOutsidePaths ? nil : ProjectBoundary(recipeFolder: folder)
        if let boundary {
            for (index, source) in sources.enumerated()
            where source.standardInput == nil && !boundary.contains(source.url) {
                throw .outsideProject(
                    file: name, path: "sources[\(index)]", resolved: ProjectBoundary.resolved(source.url).path,
                    project: boundary.root.path)
            }
        }
        // A recipe without "language" speaks the language its documents declare, else English.
        let author = try top.string(.author)
        let declared =
            explicitLanguage.isEmpty || title == nil || author == nil
            ? SourceLoader.declared(of: sources) : (language: nil, title: nil, author: nil)
        let language = explicitLanguage.isEmpty ? (declared.language ?? "en") : explicitLanguage

        let split = try top.section(.split, as: SplitSettings.self) ?? SplitSettings()

        let (engines, services) = try readEngines(top, folder: folder)
        // A service's voices take parameters as a command engine's do: passed on as they are.
        let commandEngines = Set(engines.keys).union(services.keys)
        let (voice, fallbackVoice) = try readVoices(top, language: language, commandEngines: commandEngines)
        let cast = try readCast(top, narrator: voice, commandEngines: commandEngines)
        let items = try readItems(top)
        if sources.isEmpty && items.isEmpty {
            throw .missingKey(
                file: name, path: top.fieldPath(.sources), expected: "\"sources\": [\"book.txt\"] (or inline \"items\")"
            )
        }
        let (lexicon, lexiconFile) = try readLexicon(top, folder: folder, boundary: boundary)

        let audio = try top.section(.audio, as: AudioSettings.self) ?? AudioSettings()
        let alignment = try top.section(.alignment, as: AlignmentSettings.self) ?? AlignmentSettings()

        let exports = try readExports(
            top, file: file,
            title: title ?? declared.title.map { String($0.prefix(ExportSettings.maximumTitleCharacters)) },
            author: author ?? declared.author, language: language,
            narrator: voice, boundary: boundary)
        let verify = try top.section(.verify, as: VerifySettings.self)
        let cache = try top.section(.cache, as: RemoteCacheSettings.self)
        let build = try top.section(.build, as: BuildSettings.self) ?? BuildSettings()

        let outputDirectory = try readOutputDirectory(top, file: file, override: outputOverride, boundary: boundary)

        return Recipe(
            file: file, contentHash: ContentHash.sha256Hex(data), title: title, language: language, sources: sources,
            split: split, voice: voice, audio: audio, build: build, outputDirectory: outputDirectory,
            alignment: alignment,
            exports: exports, verify: verify, items: items, cast: cast, fallbackVoice: fallbackVoice, lexicon: lexicon,
            lexiconFile: lexiconFile, engines: engines, services: services, cache: cache)
    }

    /// The narrator's voice (the language's default unless `voice` says otherwise) and its fallback.
    private func readVoices(
        _ top: RecipeObjectReader<Recipe.Key>, language: String, commandEngines: Set<String>
    ) throws(RecipeError) -> (voice: VoiceSettings, fallback: VoiceSettings?) {
        let name = top.file
        var voice = VoiceSettings(id: VoiceSettings.defaultID(forLanguage: language))
        var fallbackVoice: VoiceSettings?
        if let value = top.value(.voice) {
            voice = try VoiceSettings.read(
                recipe: value, file: name, path: top.fieldPath(.voice), base: voice, commandEngines: commandEngines,
                allowsFallback: true)
            if case .object = value, let reader = try top.object(.voice, keys: VoiceSettings.RecipeKey.self),
                let fallback = reader.value(.fallback)
            {
                fallbackVoice = try VoiceSettings.read(
                    recipe: fallback, file: name, path: reader.fieldPath(.fallback), base: VoiceSettings(id: voice.id),
                    commandEngines: commandEngines)
            }
        }
        return (voice, fallbackVoice)
    }

    /// The pronunciation lexicon `lexicon` names (inside the project unless allowed), and its file.
    private func readLexicon(
        _ top: RecipeObjectReader<Recipe.Key>, folder: URL, boundary: ProjectBoundary?
    ) throws(RecipeError) -> (lexicon: Lexicon, file: URL?) {
        let name = top.file
        var lexicon = Lexicon()
        var lexiconFile: URL?
        if let path = try top.string(.lexicon) {
            let url = Self.resolve(path, against: folder)
            if let boundary, !boundary.contains(url) {
                throw .outsideProject(
                    file: name, path: top.fieldPath(.lexicon), resolved: ProjectBoundary.resolved(url).path,
                    project: boundary.root.path)
            }
            do {
                lexicon = try Lexicon.read(url)
            } catch {
                throw .invalidValue(
                    file: name, path: top.fieldPath(.lexicon), found: "\"\(path)\"",
                    allowed: "a readable lexicon file (\(error.localizedDescription))")
            }
            lexiconFile = url
        }
        return (lexicon, lexiconFile)
    }

    /// The exports' settings: the book's title (a recipe without one names its exports after its
    /// first source's declared title, else its file name), author, narrator, mastering, credits,
    /// cover and the `exports` object.
    private func readExports(
        _ top: RecipeObjectReader<Recipe.Key>, file: URL, title bookTitle: String?, author: String?,
        language: String, narrator voice: VoiceSettings,
        boundary: ProjectBoundary?
    ) throws(RecipeError) -> ExportSettings {
        let name = top.file
        let folder = file.deletingLastPathComponent()
        var exports = ExportSettings(
            title: bookTitle ?? file.deletingPathExtension().lastPathComponent, language: language)
        exports.author = author
        exports.narrator = try top.string(.narrator) ?? voice.uri
        exports.mastering = try top.value(.mastering).map { value throws(RecipeError) in
            try MasteringSettings.read(recipe: value, file: name, path: top.fieldPath(.mastering))
        }
        try exports.read(creditsOf: top)
        exports.creditVoice =
            voice.engine == SpeechEngines.builtInName
            ? voice : VoiceSettings(id: VoiceSettings.defaultID(forLanguage: language))
        if let cover = try top.string(.cover) {
            let url = Self.resolve(cover, against: folder)
            if let boundary, !boundary.contains(url) {
                throw .outsideProject(
                    file: name, path: top.fieldPath(.cover), resolved: ProjectBoundary.resolved(url).path,
                    project: boundary.root.path)
            }
            guard ["jpg", "jpeg", "png"].contains(url.pathExtension.lowercased()),
                OwnedDirectory.entry(at: ProjectBoundary.resolved(url).path) == .file
            else {
                throw .invalidValue(
                    file: name, path: top.fieldPath(.cover), found: "\"\(cover)\"",
                    allowed: "an existing .jpg or .png image file")
            }
            exports.cover = url
        }
        try exports.read(exportsOf: top)
        return exports
    }

    /// Where the build writes: `output.directory`, else `build/<recipe name>` beside the recipe;
    /// `--output` overrides both. Inside the project unless allowed.
    private func readOutputDirectory(
        _ top: RecipeObjectReader<Recipe.Key>, file: URL, override outputOverride: URL?, boundary: ProjectBoundary?
    ) throws(RecipeError) -> URL {
        let name = top.file
        let folder = file.deletingLastPathComponent()
        var outputDirectory = folder.appendingPathComponent("build").appendingPathComponent(
            file.deletingPathExtension().lastPathComponent)
        if let reader = try top.object(.output, keys: Recipe.OutputKey.self),
            let directory = try reader.string(.directory)
        {
            guard !directory.isEmpty else {
                throw .invalidValue(
                    file: name, path: reader.fieldPath(.directory), found: "an empty string",
                    allowed: "a directory path")
            }
            outputDirectory = Self.resolve(directory, against: folder)
        }
        if let outputOverride { outputDirectory = outputOverride.standardizedFileURL }

        if let boundary, !boundary.contains(outputDirectory) {
            throw .outsideProject(
                file: name, path: outputOverride == nil ? "output.directory" : "--output",
                resolved: ProjectBoundary.resolved(outputDirectory).path, project: boundary.root.path)
        }
        return outputDirectory
    }

    private func readSources(_ top: RecipeObjectReader<Recipe.Key>, folder: URL) throws(RecipeError) -> [SourceFile] {
        let name = top.file
        guard let value = top.value(.sources) else {
            throw .missingKey(
                file: name, path: top.fieldPath(.sources),
                expected: "\"sources\": [\"book.txt\"], a list of text or Markdown files")
        }
        guard case .array(let entries) = value else {
            throw .wrongType(
                file: name, path: top.fieldPath(.sources), expected: "an array of file paths", found: value.summary)
        }
        if entries.isEmpty {
            throw .invalidValue(
                file: name, path: top.fieldPath(.sources), found: "an empty array", allowed: "at least one source file")
        }
        var sources: [SourceFile] = []
        for (index, entry) in entries.enumerated() {
            let path = "sources[\(index)]"
            let written = try SourceFile.read(recipe: entry, file: name, path: path)
            let relative = written.path
            let format = written.format
            let include = written.include
            let exclude = written.exclude
            if relative == SourceFile.standardInputPath {
                guard !sources.contains(where: { $0.standardInput != nil }) else {
                    throw .invalidValue(
                        file: name, path: path, found: "a second \"-\"", allowed: "standard input named once")
                }
                sources.append(
                    SourceFile(
                        url: folder.appendingPathComponent("-"), format: format ?? .text,
                        standardInput: try Self.readStandardInput(file: name, path: path),
                        include: include, exclude: exclude))
                continue
            }
            let url = Self.resolve(relative, against: folder)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw .missingSource(file: name, path: path, resolved: url.path)
            }
            if isDirectory.boolValue {
                throw .unreadableSource(
                    file: name, path: path, resolved: url.path, reason: "it is a directory; name the files in it")
            }
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw .unreadableSource(file: name, path: path, resolved: url.path, reason: "permission denied")
            }
            sources.append(
                SourceFile(
                    url: url, format: format ?? SourceFile.inferredFormat(for: url), include: include, exclude: exclude)
            )
        }
        return sources
    }

    /// Reads all of standard input, once, for the recipe's `-` source.
    static func readStandardInput(file: String, path: String) throws(RecipeError) -> Data {
        var data = Data()
        while true {
            let chunk = FileHandle.standardInput.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            data.append(chunk)
            if data.count > maximumStandardInputBytes {
                throw .invalidValue(
                    file: file, path: path, found: "more than \(maximumStandardInputBytes >> 20) MiB on standard input",
                    allowed: "a smaller document, or a file")
            }
        }
        return data
    }

    static func resolve(_ path: String, against folder: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return folder.appendingPathComponent(expanded).standardizedFileURL
    }
}
