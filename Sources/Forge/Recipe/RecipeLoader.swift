import Foundation

/// Reads a recipe file, checks it against the v1 schema and resolves its paths.
///
/// Nothing is written and no work starts until a recipe has loaded: every problem is
/// reported as a ``RecipeError`` naming the file and JSON path.
package struct RecipeLoader: Sendable {
    /// The largest recipe file accepted.
    package static let maximumRecipeBytes = 1 << 20
    package static let topLevelKeys = ["version", "title", "language", "sources", "split", "voice", "audio", "build", "output", "alignment", "exports", "verify", "items", "cast", "lexicon", "engines", "author", "cover", "mastering", "credits", "cache"]
    static let outputKeys = ["directory"]
    /// The most read from standard input for a `-` source.
    package static let maximumStandardInputBytes = 256 << 20

    package init() {}

    /// Loads and validates the recipe at `url`.
    /// - Parameter outputOverride: an output directory given on the command line (`--output`),
    ///   which replaces `output.directory`; relative to the current directory.
    /// - Parameter allowOutsidePaths: accept sources and an output directory outside the project
    ///   (see ``ProjectBoundary``); off by default, so an untrusted recipe cannot reach out.
    package func load(from url: URL, outputOverride: URL? = nil, allowOutsidePaths: Bool = false) throws(RecipeError) -> Recipe {
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
            let reason = FileManager.default.fileExists(atPath: url.path) ? "permission denied or unreadable" : "no such file"
            throw .unreadable(file: name, reason: reason)
        }
        return try parse(data, file: url, outputOverride: outputOverride, allowOutsidePaths: allowOutsidePaths)
    }

    /// Validates recipe JSON given as bytes; `file` names it in messages and anchors relative paths.
    package func parse(_ data: Data, file: URL, outputOverride: URL? = nil, allowOutsidePaths: Bool = false) throws(RecipeError) -> Recipe {
        let name = file.path
        let root: JSONValue
        do {
            root = try JSONParser().parse([UInt8](data))
        } catch {
            throw .syntax(file: name, line: error.line, column: error.column, message: error.message)
        }
        let top = try RecipeObjectReader(root, file: name, path: "", allowedKeys: Self.topLevelKeys)
        let folder = file.deletingLastPathComponent()

        _ = try top.integer("version", in: 1...1, default: 1)
        let title = try top.string("title")
        if let title, title.count > ExportSettings.maximumTitleCharacters {
            throw .invalidValue(
                file: name, path: "title", found: "a title of \(title.count) characters",
                allowed: "at most \(ExportSettings.maximumTitleCharacters) characters (it names the exported files)")
        }
        let explicitLanguage = try top.nonEmptyString("language", default: "")
        let sources = top.value("sources") == nil && top.value("items") != nil ? [] : try readSources(top, folder: folder)
        // Every file is checked against the project before it is opened (the language of an HTML
        // or EPUB source is read just below; a lexicon is parsed further down).
        let boundary = allowOutsidePaths ? nil : ProjectBoundary(recipeFolder: folder)
        if let boundary {
            for (index, source) in sources.enumerated() where source.standardInput == nil && !boundary.contains(source.url) {
                throw .outsideProject(file: name, path: "sources[\(index)]", resolved: ProjectBoundary.resolved(source.url).path, project: boundary.root.path)
            }
        }
        // A recipe without "language" speaks the language its documents declare, else English.
        let declared = explicitLanguage.isEmpty || title == nil ? SourceLoader.declared(of: sources) : (language: nil, title: nil)
        let language = explicitLanguage.isEmpty ? (declared.language ?? "en") : explicitLanguage

        var split = SplitSettings()
        if let reader = try top.object("split", allowedKeys: SplitSettings.recipeKeys) {
            split.unit = try reader.choice("unit", default: split.unit)
            split.maxCharacters = try reader.integer("maxCharacters", in: SplitSettings.allowedMaxCharacters, default: split.maxCharacters, unit: "characters")
            split.announceCharacters = try reader.choice("announceCharacters", default: split.announceCharacters)
        }

        let engines = try readEngines(top, folder: folder)
        let commandEngines = Set(engines.keys)
        var voice = VoiceSettings(id: VoiceSettings.defaultID(forLanguage: language))
        var fallbackVoice: VoiceSettings?
        if let value = top.value("voice") {
            voice = try readVoice(value, file: name, path: "voice", base: voice, commandEngines: commandEngines)
            if case .object = value, let reader = try top.object("voice", allowedKeys: VoiceSettings.recipeKeys), let fallback = reader.value("fallback") {
                fallbackVoice = try readVoice(fallback, file: name, path: "voice.fallback", base: VoiceSettings(id: voice.id), commandEngines: commandEngines)
            }
        }
        let cast = try readCast(top, narrator: voice, commandEngines: commandEngines)
        let items = try readItems(top)
        if sources.isEmpty && items.isEmpty {
            throw .missingKey(file: name, path: "sources", expected: "\"sources\": [\"book.txt\"] (or inline \"items\")")
        }
        var lexicon = Lexicon()
        var lexiconFile: URL?
        if let path = try top.string("lexicon") {
            let url = Self.resolve(path, against: folder)
            if let boundary, !boundary.contains(url) {
                throw .outsideProject(file: name, path: "lexicon", resolved: ProjectBoundary.resolved(url).path, project: boundary.root.path)
            }
            do {
                lexicon = try Lexicon.read(url)
            } catch {
                throw .invalidValue(file: name, path: "lexicon", found: "\"\(path)\"", allowed: "a readable lexicon file (\(error.localizedDescription))")
            }
            lexiconFile = url
        }

        var audio = AudioSettings()
        if let reader = try top.object("audio", allowedKeys: AudioSettings.recipeKeys) {
            audio.format = try reader.choice("format", default: audio.format)
            // Opus has rates of its own: without a sampleRate it is written at its native 48 kHz.
            let rates = audio.format.sampleRates ?? AudioSettings.allowedSampleRates
            audio.sampleRate = try reader.integer(
                "sampleRate", oneOf: rates, default: audio.format == .opus ? 48000 : audio.sampleRate,
                unit: audio.format == .opus ? "Hz (the rates Opus is written at)" : "Hz")
        }

        var alignment = AlignmentSettings()
        if let reader = try top.object("alignment", allowedKeys: AlignmentSettings.recipeKeys) {
            alignment.method = try reader.choice("method", default: alignment.method)
        }

        // A recipe without a title names its exports after its first source (its declared title, else its file name).
        let bookTitle = title ?? declared.title.map { String($0.prefix(ExportSettings.maximumTitleCharacters)) }
        var exports = ExportSettings(title: bookTitle ?? file.deletingPathExtension().lastPathComponent, language: language)
        exports.author = try top.string("author")
        exports.narrator = voice.uri
        exports.mastering = try readMastering(top)
        if let credits = try top.object("credits", allowedKeys: ["opening", "closing"]) {
            exports.openingCredit = try credits.string("opening")
            exports.closingCredit = try credits.string("closing")
        }
        exports.creditVoice = voice.engine == SpeechEngines.builtInName ? voice : VoiceSettings(id: VoiceSettings.defaultID(forLanguage: language))
        if let cover = try top.string("cover") {
            let url = Self.resolve(cover, against: folder)
            if let boundary, !boundary.contains(url) {
                throw .outsideProject(file: name, path: "cover", resolved: ProjectBoundary.resolved(url).path, project: boundary.root.path)
            }
            guard ["jpg", "jpeg", "png"].contains(url.pathExtension.lowercased()), OwnedDirectory.entry(at: ProjectBoundary.resolved(url).path) == .file else {
                throw .invalidValue(file: name, path: "cover", found: "\"\(cover)\"", allowed: "an existing .jpg or .png image file")
            }
            exports.cover = url
        }
        if let value = top.value("exports") {
            if case .array = value {
                exports.formats = try RecipeObjectReader.choices(value, file: name, path: "exports")
            } else {
                let reader = try RecipeObjectReader(value, file: name, path: "exports", allowedKeys: ExportSettings.recipeKeys)
                if let formats = reader.value("formats") {
                    exports.formats = try RecipeObjectReader.choices(formats, file: name, path: "exports.formats")
                }
                if let pauses = try reader.object("pauses", allowedKeys: ExportSettings.pauseRecipeKeys) {
                    let range = ExportSettings.allowedPauses
                    exports.sentencePauseMs = try pauses.integer("sentenceMs", in: range, default: exports.sentencePauseMs, unit: "ms")
                    exports.paragraphPauseMs = try pauses.integer("paragraphMs", in: range, default: exports.paragraphPauseMs, unit: "ms")
                    exports.chapterPauseMs = try pauses.integer("chapterMs", in: range, default: exports.chapterPauseMs, unit: "ms")
                }
                exports.maxCueCharacters = try reader.integer(
                    "maxCueCharacters", in: ExportSettings.allowedCueCharacters, default: exports.maxCueCharacters, unit: "characters")
                exports.wordLevelOverlays = try reader.boolean("wordLevelOverlays", default: exports.wordLevelOverlays)
            }
        }

        var verify: VerifySettings?
        if let reader = try top.object("verify", allowedKeys: VerifySettings.recipeKeys) {
            var settings = VerifySettings()
            settings.required = try reader.boolean("required", default: false)
            settings.maxWordErrorRate = try reader.fraction("maxWordErrorRate")
            if reader.value("jobs") != nil {
                settings.jobs = try reader.integer("jobs", in: BuildSettings.allowedJobs, default: 1, unit: "decoders")
            }
            verify = settings
        }

        var cache: RemoteCacheSettings?
        if let reader = try top.object("cache", allowedKeys: RemoteCacheSettings.recipeKeys) {
            guard let text = try reader.string("remote") else {
                throw .missingKey(file: name, path: "cache.remote", expected: "\"remote\": \"http://cache.example:8080/forge\" (a Bazel HTTP cache)")
            }
            switch RemoteCacheSettings.parseURL(text) {
            case let .failure(problem):
                throw .invalidValue(file: name, path: "cache.remote", found: "\"\(RemoteCacheSettings.redacted(text))\"", allowed: "an http:// or https:// URL (\(problem.explanation))")
            case let .success(url):
                var settings = RemoteCacheSettings(url: url)
                settings.readOnly = try reader.boolean("readOnly", default: false)
                settings.required = try reader.boolean("required", default: false)
                settings.timeoutSeconds = try reader.integer(
                    "timeoutSeconds", in: RemoteCacheSettings.allowedTimeoutSeconds, default: settings.timeoutSeconds, unit: "seconds")
                cache = settings
            }
        }

        var build = BuildSettings()
        if let reader = try top.object("build", allowedKeys: BuildSettings.recipeKeys) {
            build.saveInterval = try reader.integer("saveInterval", in: BuildSettings.allowedSaveIntervals, default: build.saveInterval, unit: "items")
            build.jobs = try reader.integer("jobs", in: BuildSettings.allowedJobs, default: build.jobs, unit: "worker processes")
        }

        var outputDirectory = folder.appendingPathComponent("build").appendingPathComponent(file.deletingPathExtension().lastPathComponent)
        if let reader = try top.object("output", allowedKeys: Self.outputKeys), let directory = try reader.string("directory") {
            guard !directory.isEmpty else {
                throw .invalidValue(file: name, path: "output.directory", found: "an empty string", allowed: "a directory path")
            }
            outputDirectory = Self.resolve(directory, against: folder)
        }
        if let outputOverride { outputDirectory = outputOverride.standardizedFileURL }

        if let boundary {
            if !boundary.contains(outputDirectory) {
                throw .outsideProject(
                    file: name, path: outputOverride == nil ? "output.directory" : "--output",
                    resolved: ProjectBoundary.resolved(outputDirectory).path, project: boundary.root.path)
            }
        }

        return Recipe(
            file: file, contentHash: ContentHash.sha256Hex(data), title: title, language: language, sources: sources,
            split: split, voice: voice, audio: audio, build: build, outputDirectory: outputDirectory, alignment: alignment,
            exports: exports, verify: verify, items: items, cast: cast, fallbackVoice: fallbackVoice, lexicon: lexicon,
            lexiconFile: lexiconFile, engines: engines, cache: cache)
    }

    /// `mastering`: a profile name ("acx", "ebu-r128", "podcast") or an object of targets, starting
    /// from its `profile` when given.
    private func readMastering(_ top: RecipeObjectReader) throws(RecipeError) -> MasteringSettings? {
        guard let value = top.value("mastering") else { return nil }
        let names = MasteringSettings.profiles.map { "\"\($0.profile)\"" }.joined(separator: ", ")
        if case .string(let name) = value {
            guard let profile = MasteringSettings.profile(named: name) else {
                throw .invalidValue(file: top.file, path: "mastering", found: value.summary, allowed: "a profile: \(names), or an object of targets")
            }
            return profile
        }
        let reader = try RecipeObjectReader(value, file: top.file, path: "mastering", allowedKeys: MasteringSettings.recipeKeys)
        var settings = MasteringSettings(integratedLoudness: -18, truePeakCeiling: -1.5)
        if let name = try reader.string("profile") {
            guard let profile = MasteringSettings.profile(named: name) else {
                throw .invalidValue(file: top.file, path: "mastering.profile", found: "\"\(name)\"", allowed: names)
            }
            settings = profile
        }
        let loudness = MasteringSettings.allowedLoudness, peaks = MasteringSettings.allowedPeaks, tone = MasteringSettings.allowedRoomTone
        settings.integratedLoudness = try reader.number("integratedLoudness", in: loudness, default: settings.integratedLoudness, unit: "LUFS") ?? settings.integratedLoudness
        settings.truePeakCeiling = try reader.number("truePeak", in: peaks, default: settings.truePeakCeiling, unit: "dBTP") ?? settings.truePeakCeiling
        settings.samplePeakCeiling = try reader.number("samplePeak", in: peaks, default: settings.samplePeakCeiling, unit: "dBFS")
        settings.maximumRMS = try reader.number("maximumRMS", in: -40 ... 0, default: settings.maximumRMS, unit: "dBFS")
        if reader.value("headMs") != nil { settings.headMs = try reader.integer("headMs", in: tone, default: 0, unit: "ms") }
        if reader.value("tailMs") != nil { settings.tailMs = try reader.integer("tailMs", in: tone, default: 0, unit: "ms") }
        if reader.value("profile") == nil || reader.value("integratedLoudness") != nil || reader.value("truePeak") != nil { settings.profile = "custom" }
        return settings
    }

    private func readSources(_ top: RecipeObjectReader, folder: URL) throws(RecipeError) -> [SourceFile] {
        let name = top.file
        guard let value = top.value("sources") else {
            throw .missingKey(file: name, path: "sources", expected: "\"sources\": [\"book.txt\"], a list of text or Markdown files")
        }
        guard case .array(let entries) = value else {
            throw .wrongType(file: name, path: "sources", expected: "an array of file paths", found: value.summary)
        }
        if entries.isEmpty {
            throw .invalidValue(file: name, path: "sources", found: "an empty array", allowed: "at least one source file")
        }
        var sources: [SourceFile] = []
        for (index, entry) in entries.enumerated() {
            let path = "sources[\(index)]"
            let relative: String
            var format: SourceFile.Format?
            switch entry {
            case .string(let text):
                relative = text
            case .object:
                let reader = try RecipeObjectReader(entry, file: name, path: path, allowedKeys: SourceFile.recipeKeys)
                guard let text = try reader.string("path") else {
                    throw .missingKey(file: name, path: "\(path).path", expected: "\"path\": \"book.txt\"")
                }
                relative = text
                if reader.value("format") != nil {
                    format = try reader.choice("format", default: SourceFile.Format.text)
                }
            default:
                throw .wrongType(file: name, path: path, expected: "a file path string or an object with \"path\"", found: entry.summary)
            }
            guard !relative.isEmpty else {
                throw .invalidValue(file: name, path: path, found: "an empty string", allowed: "a file path")
            }
            var include: [String] = []
            var exclude: [String] = []
            if case .object = entry {
                let reader = try RecipeObjectReader(entry, file: name, path: path, allowedKeys: SourceFile.recipeKeys)
                include = try reader.strings("include")
                exclude = try reader.strings("exclude")
                if (!include.isEmpty || !exclude.isEmpty), (format ?? SourceFile.inferredFormat(for: URL(fileURLWithPath: relative))) != .epub {
                    throw .invalidValue(
                        file: name, path: "\(path).\(include.isEmpty ? "exclude" : "include")", found: "a spine selection for a source that is not an EPUB",
                        allowed: "\"include\"/\"exclude\" only on .epub sources (or with \"format\": \"epub\")")
                }
            }
            if relative == SourceFile.standardInputPath {
                guard !sources.contains(where: { $0.standardInput != nil }) else {
                    throw .invalidValue(file: name, path: path, found: "a second \"-\"", allowed: "standard input named once")
                }
                sources.append(
                    SourceFile(
                        url: folder.appendingPathComponent("-"), format: format ?? .text, standardInput: try Self.readStandardInput(file: name, path: path),
                        include: include, exclude: exclude))
                continue
            }
            let url = Self.resolve(relative, against: folder)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw .missingSource(file: name, path: path, resolved: url.path)
            }
            if isDirectory.boolValue {
                throw .unreadableSource(file: name, path: path, resolved: url.path, reason: "it is a directory; name the files in it")
            }
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw .unreadableSource(file: name, path: path, resolved: url.path, reason: "permission denied")
            }
            sources.append(SourceFile(url: url, format: format ?? SourceFile.inferredFormat(for: url), include: include, exclude: exclude))
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
                throw .invalidValue(file: file, path: path, found: "more than \(maximumStandardInputBytes >> 20) MiB on standard input", allowed: "a smaller document, or a file")
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
