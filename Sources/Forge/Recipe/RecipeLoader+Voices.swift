import Foundation

extension RecipeLoader {
    /// `cast`: character name → voice. Names match case-insensitively, so two spellings differing
    /// only in case are one character, and naming one twice is refused.
    func readCast(_ top: RecipeObjectReader<Recipe.Key>, narrator: VoiceSettings, commandEngines: Set<String>)
        throws(RecipeError) -> [String: VoiceSettings]
    {
        guard let value = top.value(.cast) else { return [:] }
        guard case .object(let pairs) = value else {
            throw .wrongType(
                file: top.file, path: top.fieldPath(.cast),
                expected: "an object of character names and voices, e.g. {\"Hamlet\": \"espeak-ng:en-gb\"}",
                found: value.summary)
        }
        var cast: [String: VoiceSettings] = [:]
        var written: [String: String] = [:]
        for (character, entry) in pairs {
            let path = "cast.\(character)"
            let key = character.lowercased()
            guard !character.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .invalidValue(
                    file: top.file, path: top.fieldPath(.cast), found: "an empty character name",
                    allowed: "the name as the script writes it")
            }
            if let first = written[key] {
                throw .invalidValue(
                    file: top.file, path: path,
                    found: "\"\(character)\", the same character as \"\(first)\" (names match whatever their case)",
                    allowed: "one entry per character")
            }
            written[key] = character
            // A character's voice starts from the narrator's settings, so "en-gb" alone keeps the recipe's rate.
            cast[key] = try VoiceSettings.read(
                recipe: entry, file: top.file, path: path, base: narrator, commandEngines: commandEngines)
        }
        return cast
    }

    /// `engines`: name → a command engine, `{"command": ["program", "arg"], "timeoutSeconds": 300}`,
    /// or a speech service, `{"api": "openai", "url": …, "model": …}`.
    func readEngines(_ top: RecipeObjectReader<Recipe.Key>, folder: URL) throws(RecipeError) -> (
        commands: [String: CommandEngineSettings], services: [String: SpeechServiceSettings]
    ) {
        guard let value = top.value(.engines) else { return ([:], [:]) }
        guard case .object(let pairs) = value else {
            throw .wrongType(
                file: top.file, path: top.fieldPath(.engines),
                expected:
                    "an object of engine names, e.g. {\"piper\": {\"command\": [\"adapters/piper/forge-piper\"]}}",
                found: value.summary)
        }
        var engines: [String: CommandEngineSettings] = [:]
        var services: [String: SpeechServiceSettings] = [:]
        for (engineName, entry) in pairs {
            let path = "engines.\(engineName)"
            let validName =
                !engineName.isEmpty
                && engineName.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_")
                }
            guard validName, engineName != SpeechEngines.builtInName else {
                throw .invalidValue(
                    file: top.file, path: path, found: "the engine name \"\(engineName)\"",
                    allowed: "letters, digits, \"-\" and \"_\", other than \"\(SpeechEngines.builtInName)\"")
            }
            if case .object(let members) = entry, members.contains(where: { $0.key == "api" }) {
                services[engineName] = try SpeechServiceSettings.read(
                    recipe: entry, name: engineName, file: top.file, path: path)
                continue
            }
            engines[engineName] = try CommandEngineSettings.read(
                recipe: entry, name: engineName, file: top.file, path: path, folder: folder)
        }
        return (engines, services)
    }
}
