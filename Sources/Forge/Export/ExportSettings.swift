import Foundation

/// What `forge export` writes and how chapters are timed.
package struct ExportSettings: Sendable, Equatable {
    /// The keys of the recipe's `exports` object, of its `pauses` and of the top-level `credits`
    /// (read by `ExportSettings.read(recipe:…)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable {
        case formats, pauses, maxCueCharacters, wordLevelOverlays, epubAudio
    }
    package enum PauseRecipeKey: String, CaseIterable, Sendable { case sentenceMs, paragraphMs, chapterMs }
    package enum CreditRecipeKey: String, CaseIterable, Sendable { case opening, closing }

    package static let allowedPauses = 0...10_000
    package static let allowedCueCharacters = 20...500
    /// The longest book title: it names files (the EPUB) and fills page titles.
    package static let maximumTitleCharacters = 500

    package var formats: [ExportFormat]
    /// Silence between two items cut from one paragraph.
    package var sentencePauseMs: Int
    /// Silence between paragraphs (and after a heading).
    package var paragraphPauseMs: Int
    /// Silence at the end of every chapter, so chapters played back to back breathe.
    package var chapterPauseMs: Int
    /// The longest caption cue, in characters, shown in two lines of half that; longer sentences are cut at word boundaries.
    package var maxCueCharacters: Int
    /// Give every word (not only every sentence) an id in EPUB content documents, and a SMIL `par` each.
    package var wordLevelOverlays: Bool
    /// The EPUB's chapter audio: AAC (the M4B's encoding, shared) or MP3 (encoded for the EPUB).
    package var epubAudio: EPUBAudioCodec = .aac
    /// The book's title and language for the EPUB (the recipe's, when building).
    package var title: String
    package var language: String
    /// The book's author and cover image, for the M4B (and the EPUB's metadata).
    package var author: String?
    package var cover: URL?
    /// The narrator as the M4B names it (the voice's URI when building).
    package var narrator: String?
    /// Whether the M4B and the ACX set begin and end with spoken credits (ACX asks for both): the
    /// M4B as chapters of their own, the ACX set as files of their own, spoken by ``creditVoice``.
    /// A recipe has them unless it says `"credits": false`.
    package var credits = false
    /// The opening and closing credits' texts as the recipe or the command line gives them: nil
    /// for the default (``BookCredits``), empty for none.
    package var openingCredit: String?
    package var closingCredit: String?
    /// Each credit's audio object in the store (its path, by the credit's text), spoken by a
    /// synthesis worker before the export (``CreditSpeech``); the export itself speaks nothing.
    package var creditAudio: [String: String] = [:]
    /// The espeak-ng voice of the credits: the narrator's when it is one, else the language's.
    package var creditVoice: VoiceSettings?
    /// Mastering applied to every exported chapter's audio (nil: as synthesized).
    package var mastering: MasteringSettings?

    /// Silence before each chapter's first item: the mastering's head room tone, else none.
    package var chapterHeadMs: Int { mastering?.headMs ?? 0 }
    /// Silence after each chapter's last item: the mastering's tail room tone, else the chapter pause.
    package var chapterTailMs: Int { mastering?.tailMs ?? chapterPauseMs }

    /// The codecs an EPUB's chapter audio can be in (`exports.epubAudio`).
    package enum EPUBAudioCodec: String, CaseIterable, Sendable, Codable {
        /// AAC in MP4 (EPUB 3.0.1's core media type), shared with the M4B: nothing is encoded twice.
        case aac
        /// MP3, for reading systems that play no AAC.
        case mp3
    }

    package init(
        formats: [ExportFormat] = [], sentencePauseMs: Int = 250, paragraphPauseMs: Int = 700,
        chapterPauseMs: Int = 1500,
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
