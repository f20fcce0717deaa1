import Foundation

/// What a command that exports from an output directory is told instead of what the build
/// recorded (`forge export`'s options, `forge check --mastering`): each value set here replaces the
/// recorded one (``RecordedSettings/merging(_:)``); nil leaves it.
package struct ExportOverrides: Sendable, Equatable {
    package var formats: [ExportFormat]?
    package var sentencePauseMs: Int?
    package var paragraphPauseMs: Int?
    package var chapterPauseMs: Int?
    package var maxCueCharacters: Int?
    /// Only `true` overrides: a build's word-level overlays are not turned off by leaving the option out.
    package var wordLevelOverlays: Bool?
    package var epubAudio: ExportSettings.EPUBAudioCodec?
    package var title: String?
    package var language: String?
    package var author: String?
    /// A mastering profile, or `.some(nil)` for none (as synthesized).
    package var mastering: MasteringSettings??
    /// Whether the M4B and the ACX set have credits; a credit's text turns them on unless this says no.
    package var credits: Bool?
    package var openingCredit: String?
    package var closingCredit: String?
    package var cover: URL?

    package init() {}

    /// `settings` with every value set here in place of its own.
    package func applied(to settings: ExportSettings) -> ExportSettings {
        var settings = settings
        if let formats { settings.formats = formats }
        if let sentencePauseMs { settings.sentencePauseMs = sentencePauseMs }
        if let paragraphPauseMs { settings.paragraphPauseMs = paragraphPauseMs }
        if let chapterPauseMs { settings.chapterPauseMs = chapterPauseMs }
        if let maxCueCharacters { settings.maxCueCharacters = maxCueCharacters }
        if let wordLevelOverlays { settings.wordLevelOverlays = wordLevelOverlays }
        if let epubAudio { settings.epubAudio = epubAudio }
        if let title { settings.title = title }
        if let language { settings.language = language }
        if let author { settings.author = author }
        if let mastering { settings.mastering = mastering }
        if let openingCredit { settings.openingCredit = openingCredit }
        if let closingCredit { settings.closingCredit = closingCredit }
        if openingCredit != nil || closingCredit != nil { settings.credits = true }
        if let credits { settings.credits = credits }
        if let cover { settings.cover = cover }
        return settings
    }
}
