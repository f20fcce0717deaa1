import Foundation

/// A validated build recipe: what to read, how to voice it, how to encode it and where to put it.
///
/// Recipes are JSON files read by ``RecipeLoader``; every key is documented in `docs/recipe.md`.
/// Paths are already resolved against the recipe's folder.
package struct Recipe: Sendable, Equatable {
    /// The recipe's top-level keys (read by ``RecipeLoader``); others are refused. Each object
    /// below declares its own keys: `SplitSettings.RecipeKey`, `VoiceSettings.RecipeKey`, ….
    package enum Key: String, CaseIterable, Sendable {
        case version, title, language, sources, split, voice, audio, build, output, alignment, exports, verify, items,
            cast, lexicon, engines
        case author, narrator, cover, mastering, credits, cache
    }

    /// The keys of the recipe's `output` object.
    package enum OutputKey: String, CaseIterable, Sendable { case directory }

    /// The recipe file itself.
    package var file: URL
    /// SHA-256 of the recipe file's bytes, recorded with every build.
    package var contentHash: String
    /// An optional human title for the book or pack.
    package var title: String?
    /// BCP 47 language of the text, e.g. `en`; used by the splitter.
    package var language: String
    /// Source documents, in reading order.
    package var sources: [SourceFile]
    package var split: SplitSettings
    package var voice: VoiceSettings
    package var audio: AudioSettings
    package var build: BuildSettings
    package var alignment: AlignmentSettings
    /// What `forge build` exports after a complete build (nothing by default).
    package var exports: ExportSettings
    /// Verification after a complete build; nil when the recipe has no `verify` block.
    package var verify: VerifySettings?
    /// The output directory (content-addressed objects plus `manifest.sqlite`).
    package var outputDirectory: URL
    /// Items written in the recipe itself, spoken after the sources as one chapter.
    package var items: [InlineItem]
    /// Characters' voices by lower-cased name; characters not listed speak with `voice`.
    package var cast: [String: VoiceSettings]
    /// The voice that speaks an item whose own voice's engine failed on it.
    package var fallbackVoice: VoiceSettings?
    /// Pronunciations applied before synthesis and alignment.
    package var lexicon: Lexicon
    package var lexiconFile: URL?
    /// Command engines by name; voices name them as their engine.
    package var engines: [String: CommandEngineSettings]
    /// Speech services reached over HTTP by name; voices name them as their engine.
    package var services: [String: SpeechServiceSettings]
    /// The remote cache builds share objects through (`cache`, `--remote-cache`); nil for none.
    package var cache: RemoteCacheSettings?
    /// Whether command engines may run (`--allow-commands`): off, so a recipe from an untrusted
    /// change cannot run programs.
    package var allowCommands = false
    /// Which key variables may go to which hosts (`--engine-key`): none, so a recipe cannot send a
    /// secret where it likes.
    package var serviceKeyGrants = SpeechServiceKeyGrants()

    package init(
        file: URL, contentHash: String, title: String?, language: String, sources: [SourceFile],
        split: SplitSettings, voice: VoiceSettings, audio: AudioSettings, build: BuildSettings, outputDirectory: URL,
        alignment: AlignmentSettings = AlignmentSettings(), exports: ExportSettings = ExportSettings(),
        verify: VerifySettings? = nil,
        items: [InlineItem] = [], cast: [String: VoiceSettings] = [:], fallbackVoice: VoiceSettings? = nil,
        lexicon: Lexicon = Lexicon(),
        lexiconFile: URL? = nil, engines: [String: CommandEngineSettings] = [:],
        services: [String: SpeechServiceSettings] = [:], cache: RemoteCacheSettings? = nil
    ) {
        self.services = services
        self.cache = cache
        self.items = items
        self.cast = cast
        self.fallbackVoice = fallbackVoice
        self.lexicon = lexicon
        self.lexiconFile = lexiconFile
        self.engines = engines
        self.verify = verify
        self.exports = exports
        self.alignment = alignment
        self.file = file
        self.contentHash = contentHash
        self.title = title
        self.language = language
        self.sources = sources
        self.split = split
        self.voice = voice
        self.audio = audio
        self.build = build
        self.outputDirectory = outputDirectory
    }
}
