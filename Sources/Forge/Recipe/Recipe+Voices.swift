extension Recipe {
    /// The voice of an item spoken by `character` (nil: the narrator): the cast's voice for the
    /// character, whatever the case of its name, else the recipe's `voice`.
    package func voice(forCharacter character: String?) -> VoiceSettings {
        guard let character else { return voice }
        return cast[character.lowercased()] ?? voice
    }

    /// Characters that speak in `characters` but have no voice in the cast (they speak with the
    /// narrator's voice), each once, as first written, in order of appearance.
    package func uncastCharacters(_ characters: [String?]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for case let character? in characters where cast[character.lowercased()] == nil {
            if seen.insert(character.lowercased()).inserted { result.append(character) }
        }
        return result
    }

    /// Every voice the recipe may speak with: the narrator's, the cast's and the fallback.
    package var allVoices: [(path: String, voice: VoiceSettings)] {
        var voices: [(String, VoiceSettings)] = [("voice", voice)]
        for (name, voice) in cast.sorted(by: { $0.key < $1.key }) { voices.append(("cast.\(name)", voice)) }
        if let fallbackVoice { voices.append(("voice.fallback", fallbackVoice)) }
        return voices
    }
}
