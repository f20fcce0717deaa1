import Foundation

extension RecipeLoader {
    /// A voice written as a URI string (`"espeak-ng:en-gb?rate=160"`, or a bare voice name of the
    /// default engine) or as an object (`engine`, `id`, `rate`, `pitch`, `volume`; `id` may be a URI).
    func readVoice(_ value: JSONValue, file name: String, path: String, base: VoiceSettings, commandEngines: Set<String>) throws(RecipeError) -> VoiceSettings {
        let voice = try readVoiceFields(value, file: name, path: path, base: base, commandEngines: commandEngines)
        if let problem = SpeechEngines.voiceIDProblem(voice) {
            let idPath = if case .object = value { "\(path).id" } else { path }
            throw .invalidValue(file: name, path: idPath, found: JSONValue.string(voice.id).summary, allowed: problem)
        }
        return voice
    }

    private func readVoiceFields(_ value: JSONValue, file name: String, path: String, base: VoiceSettings, commandEngines: Set<String>) throws(RecipeError) -> VoiceSettings {
        let engines = VoiceSettings.supportedEngines + commandEngines.sorted()
        if case .string(let uri) = value {
            do {
                // A bare name ("en-gb") is a voice of the default engine.
                return try VoiceURI.parse(uri.contains(":") ? uri : "\(VoiceSettings().engine):\(uri)", base: base, commandEngines: commandEngines)
            } catch {
                throw .invalidValue(
                    file: name, path: path, found: JSONValue.string(uri).summary,
                    allowed: "a voice URI such as \"espeak-ng:en-us+klatt?rate=170&pitch=45\" (\(error.message))")
            }
        }
        let reader = try RecipeObjectReader(value, file: name, path: path, allowedKeys: path == "voice" ? VoiceSettings.recipeKeys : VoiceSettings.recipeKeys.filter { $0 != "fallback" })
        var voice = base
        voice.engine = try reader.nonEmptyString("engine", default: voice.engine)
        guard engines.contains(voice.engine) else {
            throw .invalidValue(
                file: name, path: "\(path).engine", found: JSONValue.string(voice.engine).summary,
                allowed: engines.map { "\"\($0)\"" }.joined(separator: ", ") + " (command engines are declared under \"engines\")")
        }
        if let id = try reader.string("id"), id.contains(":") {
            // A voice URI where a bare voice name was expected: its engine and parameters apply, keys beside it win.
            do {
                voice = try VoiceURI.parse(id, base: voice, commandEngines: commandEngines)
            } catch {
                throw .invalidValue(file: name, path: "\(path).id", found: JSONValue.string(id).summary, allowed: "a voice name or URI (\(error.message))")
            }
        } else {
            voice.id = try reader.nonEmptyString("id", default: voice.id)
        }
        voice.rate = try reader.integer("rate", in: VoiceSettings.allowedRates, default: voice.rate, unit: "words per minute")
        voice.pitch = try reader.integer("pitch", in: VoiceSettings.allowedPitches, default: voice.pitch)
        voice.volume = try reader.integer("volume", in: VoiceSettings.allowedVolumes, default: voice.volume, unit: "percent")
        return voice
    }

    /// `cast`: character name → voice. Names match case-insensitively, so two spellings differing
    /// only in case are one character, and naming one twice is refused.
    func readCast(_ top: RecipeObjectReader, narrator: VoiceSettings, commandEngines: Set<String>) throws(RecipeError) -> [String: VoiceSettings] {
        guard let value = top.value("cast") else { return [:] }
        guard case .object(let pairs) = value else {
            throw .wrongType(file: top.file, path: "cast", expected: "an object of character names and voices, e.g. {\"Hamlet\": \"espeak-ng:en-gb\"}", found: value.summary)
        }
        var cast: [String: VoiceSettings] = [:]
        var written: [String: String] = [:]
        for (character, entry) in pairs {
            let path = "cast.\(character)"
            let key = character.lowercased()
            guard !character.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .invalidValue(file: top.file, path: "cast", found: "an empty character name", allowed: "the name as the script writes it")
            }
            if let first = written[key] {
                throw .invalidValue(file: top.file, path: path, found: "\"\(character)\", the same character as \"\(first)\" (names match whatever their case)", allowed: "one entry per character")
            }
            written[key] = character
            // A character's voice starts from the narrator's settings, so "en-gb" alone keeps the recipe's rate.
            cast[key] = try readVoice(entry, file: top.file, path: path, base: narrator, commandEngines: commandEngines)
        }
        return cast
    }

    /// `engines`: name → `{"command": ["program", "arg"], "timeoutSeconds": 300}`.
    func readEngines(_ top: RecipeObjectReader, folder: URL) throws(RecipeError) -> [String: CommandEngineSettings] {
        guard let value = top.value("engines") else { return [:] }
        guard case .object(let pairs) = value else {
            throw .wrongType(file: top.file, path: "engines", expected: "an object of engine names, e.g. {\"piper\": {\"command\": [\"adapters/piper/forge-piper\"]}}", found: value.summary)
        }
        var engines: [String: CommandEngineSettings] = [:]
        for (engineName, entry) in pairs {
            let path = "engines.\(engineName)"
            let validName = !engineName.isEmpty && engineName.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_") }
            guard validName, engineName != SpeechEngines.builtInName else {
                throw .invalidValue(
                    file: top.file, path: path, found: "the engine name \"\(engineName)\"",
                    allowed: "letters, digits, \"-\" and \"_\", other than \"\(SpeechEngines.builtInName)\"")
            }
            let reader = try RecipeObjectReader(entry, file: top.file, path: path, allowedKeys: ["command", "timeoutSeconds"])
            var command = try reader.strings("command")
            guard !command.isEmpty else {
                throw .missingKey(file: top.file, path: "\(path).command", expected: "\"command\": [\"program\", \"argument\"]")
            }
            if command[0].contains("/") { command[0] = Self.resolve(command[0], against: folder).path }
            let timeout = try reader.integer("timeoutSeconds", in: CommandEngineSettings.allowedTimeouts, default: 300, unit: "seconds")
            engines[engineName] = CommandEngineSettings(name: engineName, command: command, timeoutSeconds: timeout)
        }
        return engines
    }
}
