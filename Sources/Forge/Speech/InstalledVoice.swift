/// A voice an engine has installed, as `forge voices` lists it.
public struct InstalledVoice: Sendable, Equatable, Codable {
    public var engine: String
    /// What a recipe writes as the voice id, e.g. `en-us`.
    public var id: String
    /// The engine's name for the voice, e.g. "English (America)".
    public var name: String
    /// BCP 47-style languages the voice speaks, most preferred first.
    public var languages: [String]
    public var gender: String?

    /// The voice URI a recipe can use: `espeak-ng:en-us`.
    public let uri: String

    public init(engine: String, id: String, name: String, languages: [String], gender: String?) {
        self.engine = engine
        self.id = id
        self.name = name
        self.languages = languages
        self.gender = gender
        uri = "\(engine):\(id)"
    }

    /// Whether the voice speaks `language` or one of its regional forms (`en` matches `en-us`).
    public func speaks(_ language: String) -> Bool {
        let wanted = language.lowercased().replacingOccurrences(of: "_", with: "-")
        return languages.contains { $0 == wanted || $0.hasPrefix(wanted + "-") }
    }
}
