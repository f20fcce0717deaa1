import Foundation

/// What `forge export` writes and how chapters are timed.
public struct ExportSettings: Sendable, Equatable {
    /// The keys of the recipe's `exports` object and of its `pauses`; the recipe loader refuses others.
    public static let recipeKeys = ["formats", "pauses", "maxCueCharacters", "wordLevelOverlays"]
    public static let pauseRecipeKeys = ["sentenceMs", "paragraphMs", "chapterMs"]

    public static let allowedPauses = 0...10_000
    public static let allowedCueCharacters = 20...500
    /// The longest book title: it names files (the EPUB) and fills page titles.
    public static let maximumTitleCharacters = 500

    public var formats: [ExportFormat]
    /// Silence between two items cut from one paragraph.
    public var sentencePauseMs: Int
    /// Silence between paragraphs (and after a heading).
    public var paragraphPauseMs: Int
    /// Silence at the end of every chapter, so chapters played back to back breathe.
    public var chapterPauseMs: Int
    /// The longest caption cue, in characters, shown in two lines of half that; longer sentences are cut at word boundaries.
    public var maxCueCharacters: Int
    /// Give every word (not only every sentence) an id in EPUB content documents, and a SMIL `par` each.
    public var wordLevelOverlays: Bool
    /// The book's title and language for the EPUB (the recipe's, when building).
    public var title: String
    public var language: String
    /// The book's author and cover image, for the M4B (and the EPUB's metadata).
    public var author: String?
    public var cover: URL?
    /// The narrator as the M4B names it (the voice's URI when building).
    public var narrator: String?
    /// The ACX set's opening and closing credits, spoken by ``creditVoice`` as files of their own
    /// before the first chapter and after the last (ACX asks for both).
    public var openingCredit: String?
    public var closingCredit: String?
    /// The espeak-ng voice of the credits: the narrator's when it is one, else the language's.
    public var creditVoice: VoiceSettings?
    /// Mastering applied to every exported chapter's audio (nil: as synthesized).
    public var mastering: MasteringSettings?

    /// Silence before each chapter's first item: the mastering's head room tone, else none.
    public var chapterHeadMs: Int { mastering?.headMs ?? 0 }
    /// Silence after each chapter's last item: the mastering's tail room tone, else the chapter pause.
    public var chapterTailMs: Int { mastering?.tailMs ?? chapterPauseMs }

    public init(
        formats: [ExportFormat] = [], sentencePauseMs: Int = 250, paragraphPauseMs: Int = 700, chapterPauseMs: Int = 1500,
        maxCueCharacters: Int = 84, wordLevelOverlays: Bool = false, title: String = "Untitled", language: String = "en"
    ) {
        self.formats = formats
        self.sentencePauseMs = sentencePauseMs
        self.paragraphPauseMs = paragraphPauseMs
        self.chapterPauseMs = chapterPauseMs
        self.maxCueCharacters = maxCueCharacters
        self.wordLevelOverlays = wordLevelOverlays
        self.title = title
        self.language = language
    }
}
