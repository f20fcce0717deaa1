import Foundation

/// The settings that shaped a build, recorded on its row in the manifest (`builds.settings`,
/// JSON): the defaults of every command that takes only the output directory (`forge export`,
/// `forge verify`, packs), so they title, time and check the book as the build did.
package struct RecordedSettings: Sendable, Equatable, Codable {
    package var title: String
    package var language: String
    package var author: String?
    package var narrator: String?
    /// The recipe's cover image (an absolute path, checked inside the project when the recipe loaded).
    package var cover: String?
    package var sentencePauseMs: Int
    package var paragraphPauseMs: Int
    package var chapterPauseMs: Int
    package var maxCueCharacters: Int
    package var wordLevelOverlays: Bool
    /// Absent in settings recorded before it existed (AAC then).
    package var epubAudio: ExportSettings.EPUBAudioCodec?
    package var mastering: MasteringSettings?
    package var maxWordErrorRate: Double?
    /// The recipe's `verify.accept`: flagged items accepted for their audio (absent before it existed).
    package var acceptedItems: [String: String]?
    /// The credits and their voice (absent in settings recorded before them; `credits` absent
    /// before default credits, when a credit's text alone turned them on).
    package var credits: Bool?
    package var openingCredit: String?
    package var closingCredit: String?
    package var creditVoice: VoiceSettings?

    package init(exports: ExportSettings, maxWordErrorRate: Double? = nil, acceptedItems: [String: String]? = nil) {
        self.acceptedItems = acceptedItems?.isEmpty == false ? acceptedItems : nil
        title = exports.title
        language = exports.language
        author = exports.author
        narrator = exports.narrator
        cover = exports.cover?.path
        sentencePauseMs = exports.sentencePauseMs
        paragraphPauseMs = exports.paragraphPauseMs
        chapterPauseMs = exports.chapterPauseMs
        maxCueCharacters = exports.maxCueCharacters
        wordLevelOverlays = exports.wordLevelOverlays
        epubAudio = exports.epubAudio
        mastering = exports.mastering
        self.maxWordErrorRate = maxWordErrorRate
        credits = exports.credits
        openingCredit = exports.openingCredit
        closingCredit = exports.closingCredit
        creditVoice = exports.creditVoice
    }

    /// Export settings with these values and no formats (the command chooses those).
    package var exportSettings: ExportSettings {
        var settings = ExportSettings(
            sentencePauseMs: sentencePauseMs, paragraphPauseMs: paragraphPauseMs, chapterPauseMs: chapterPauseMs,
            maxCueCharacters: maxCueCharacters, wordLevelOverlays: wordLevelOverlays, title: title, language: language)
        settings.author = author
        settings.narrator = narrator
        settings.mastering = mastering
        settings.epubAudio = epubAudio ?? .aac
        settings.credits = credits ?? (openingCredit != nil || closingCredit != nil)
        settings.openingCredit = openingCredit
        settings.closingCredit = closingCredit
        settings.creditVoice = creditVoice
        // Only while it is still an image file there (a link put in its place is not followed).
        if let cover, ["jpg", "jpeg", "png"].contains((cover as NSString).pathExtension.lowercased()),
            OwnedDirectory.entry(at: cover) == .file
        {
            settings.cover = URL(fileURLWithPath: cover)
        }
        return settings
    }

    /// These settings with `overrides` laid over them: what a command exporting from the directory uses.
    package func merging(_ overrides: ExportOverrides) -> ExportSettings {
        overrides.applied(to: exportSettings)
    }

    /// The export settings of the output directory `directory` as its newest build recorded them
    /// (the defaults for a directory built before settings were recorded), `overrides` laid over them.
    package static func exportSettings(
        inDirectory directory: URL, merging overrides: ExportOverrides = ExportOverrides()
    )
        throws -> ExportSettings
    {
        try recorded(inDirectory: directory)?.merging(overrides) ?? overrides.applied(to: ExportSettings())
    }

    /// The settings of the newest build of `manifest` that recorded any: what `forge export` and
    /// `forge verify` use where their options are not given. Nil for directories built before them.
    package static func recorded(in manifest: Manifest) throws(StoreError) -> RecordedSettings? {
        try manifest.lastRecordedSettings().flatMap(RecordedSettings.init(json:))
    }

    /// The recorded settings of the output directory `directory`, read without leaving anything
    /// behind (``Manifest/reading(directory:_:)``).
    package static func recorded(inDirectory directory: URL) throws -> RecordedSettings? {
        try Manifest.reading(directory: directory) { try recorded(in: $0) }
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    init?(json: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = value
    }
}
