import Foundation

/// The speech engines voices can name: espeak-ng, built in, and a recipe's command engines. Each
/// is started when first asked for and kept for the life of this value (a worker process's, or a
/// build's version check).
///
/// The only place that tells engines apart by name: everything else asks an engine, or
/// ``capabilities(ofEngine:)``, what it can do.
package final class SpeechEngines {
    /// The engine built into Forge, which voices name when they name none.
    package static let builtInName = EspeakEngine.engineName

    private var commands: [String: CommandEngineSettings]
    private let scratchDirectory: URL
    private var started: [String: any SpeechEngine] = [:]

    /// `commands`: the recipe's command engines by name. `scratchDirectory`: where command engines
    /// write their audio files (the object store's temporary folder in a build).
    package init(
        commands: [String: CommandEngineSettings] = [:], scratchDirectory: URL = FileManager.default.temporaryDirectory
    ) {
        self.commands = commands
        self.scratchDirectory = scratchDirectory
    }

    /// What the engine named `name` can do, known without starting it: audio keys and the lexicon depend on it.
    package static func capabilities(ofEngine name: String) -> SpeechCapabilities {
        name == builtInName ? EspeakEngine.capabilities : CommandEngine.capabilities
    }

    /// Why `voice`'s id cannot be one of its engine's, or nil: checked when a recipe or command line
    /// is read, before anything reaches the engine.
    package static func voiceIDProblem(_ voice: VoiceSettings) -> String? {
        voice.engine == builtInName ? EspeakEngine.voiceIDProblem(voice.id) : nil
    }

    /// The engine `name`, started on first use. `command` declares a command engine not given at
    /// `init` (a worker learns them from its jobs). Throws ``SpeechError`` when espeak-ng cannot
    /// start, ``CommandEngineError`` when a command engine cannot.
    package func engine(named name: String, command: CommandEngineSettings? = nil) throws -> any SpeechEngine {
        if let engine = started[name] { return engine }
        if let command { commands[name] = command }
        let engine: any SpeechEngine
        if name == Self.builtInName {
            engine = try EspeakEngine()
        } else if let settings = commands[name] {
            engine = try CommandEngine(settings, scratchDirectory: scratchDirectory)
        } else {
            throw SpeechError.unknownEngine(name)
        }
        started[name] = engine
        return engine
    }
}
