/// A voice an engine has installed, as `forge voices` lists it.
package struct InstalledVoice: Sendable, Equatable, Codable {
    package var engine: String
    /// What a recipe writes as the voice id, e.g. `en-us`.
    package var id: String
    /// The engine's name for the voice, e.g. "English (America)".
    package var name: String
    /// BCP 47-style languages the voice speaks, most preferred first.
    package var languages: [String]
    package var gender: String?

    /// The voice URI a recipe can use: `espeak-ng:en-us`.
    package let uri: String

    package init(engine: String, id: String, name: String, languages: [String], gender: String?) {
        self.engine = engine
        self.id = id
        self.name = name
        self.languages = languages
        self.gender = gender
        uri = "\(engine):\(id)"
    }

    /// Whether the voice speaks `language` or one of its regional forms (`en` matches `en-us`).
    package func speaks(_ language: String) -> Bool {
        let wanted = language.lowercased().replacingOccurrences(of: "_", with: "-")
        return languages.contains { $0 == wanted || $0.hasPrefix(wanted + "-") }
    }
}
