extension VoiceSettings {
    /// Reads a voice written as a URI string (`"espeak-ng:en-gb?rate=160"`, or a bare voice name of
    /// the default engine) or as an object (`engine`, `id`, `rate`, `pitch`, `volume`; `id` may be a
    /// URI), on top of `base`.
    /// - Parameter allowsFallback: whether the object may have a `fallback` (the narrator's `voice`
    ///   only; the fallback itself is read by the caller).
    static func read(
        recipe value: JSONValue, file: String, path: String, base: VoiceSettings, commandEngines: Set<String>,
        allowsFallback: Bool = false
    ) throws(RecipeError) -> VoiceSettings {
        let voice = try readFields(
            value, file: file, path: path, base: base, commandEngines: commandEngines, allowsFallback: allowsFallback)
        if let problem = SpeechEngines.voiceIDProblem(voice) {
            let idPath = if case .object = value { RecipeError.join(path, RecipeKey.id.rawValue) } else { path }
            throw .invalidValue(file: file, path: idPath, found: JSONValue.string(voice.id).summary, allowed: problem)
        }
        return voice
    }

    private static func readFields(
        _ value: JSONValue, file: String, path: String, base: VoiceSettings, commandEngines: Set<String>,
        allowsFallback: Bool
    ) throws(RecipeError) -> VoiceSettings {
        let engines = supportedEngines + commandEngines.sorted()
        if case .string(let uri) = value {
            do {
                // A bare name ("en-gb") is a voice of the default engine.
                return try VoiceURI.parse(
                    uri.contains(":") ? uri : "\(VoiceSettings().engine):\(uri)", base: base,
                    commandEngines: commandEngines)
            } catch {
                throw .invalidValue(
                    file: file, path: path, found: JSONValue.string(uri).summary,
                    allowed: "a voice URI such as \"espeak-ng:en-us+klatt?rate=170&pitch=45\" (\(error.message))")
            }
        }
        let reader = try RecipeObjectReader<RecipeKey>(
            value, file: file, path: path, excluding: allowsFallback ? [] : [.fallback])
        var voice = base
        voice.engine = try reader.nonEmptyString(.engine, default: voice.engine)
        guard engines.contains(voice.engine) else {
            throw .invalidValue(
                file: file, path: reader.fieldPath(.engine), found: JSONValue.string(voice.engine).summary,
                allowed: engines.map { "\"\($0)\"" }.joined(separator: ", ")
                    + " (command engines are declared under \"engines\")")
        }
        if let id = try reader.string(.id), id.contains(":") {
            // A voice URI where a bare voice name was expected: its engine and parameters apply, keys beside it win.
            do {
                voice = try VoiceURI.parse(id, base: voice, commandEngines: commandEngines)
            } catch {
                throw .invalidValue(
                    file: file, path: reader.fieldPath(.id), found: JSONValue.string(id).summary,
                    allowed: "a voice name or URI (\(error.message))")
            }
        } else {
            voice.id = try reader.nonEmptyString(.id, default: voice.id)
        }
        voice.rate = try reader.integer(.rate, in: allowedRates, default: voice.rate, unit: "words per minute")
        voice.pitch = try reader.integer(.pitch, in: allowedPitches, default: voice.pitch)
        voice.volume = try reader.integer(.volume, in: allowedVolumes, default: voice.volume, unit: "percent")
        return voice
    }
}
