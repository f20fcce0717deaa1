import ArgumentParser
import Forge
import Foundation

/// `forge voices`: what a recipe can name as its voice.
struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the installed voices, with the voice URI a recipe uses for each.",
        discussion: """
            A recipe's "voice" is a URI: engine:voice?rate=…&pitch=…&volume=…, e.g.
            espeak-ng:en-us+klatt?rate=170&pitch=45. espeak-ng variants (+klatt, +m1, +f2 …) combine with any voice.
            """)

    @Option(
        name: .long,
        help: "Only this engine's voices (engines: \(VoiceSettings.supportedEngines.joined(separator: ", "))).")
    var engine: String?

    @Option(
        name: .long, help: "Only voices speaking this language or a regional form of it (en matches en-us, en-gb …).")
    var language: String?

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        if let engine, !VoiceSettings.supportedEngines.contains(engine) {
            throw ValidationError(
                "--engine \(engine) is not an engine Forge runs; engines: \(VoiceSettings.supportedEngines.joined(separator: ", "))."
            )
        }
    }

    func run() throws {
        let espeak: EspeakEngine
        do {
            espeak = try EspeakEngine()
        } catch {
            throw CommandFailure(error)
        }
        let voices = espeak.installedVoices().filter { voice in language.map(voice.speaks) ?? true }
        let variants = espeak.installedVoices(variants: true)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            struct Listing: Encodable {
                var voices: [InstalledVoice]
                var variants: [InstalledVoice]
            }
            print(String(decoding: try encoder.encode(Listing(voices: voices, variants: variants)), as: UTF8.self))
            return
        }
        if voices.isEmpty {
            throw CommandFailure(
                message: "no installed voice speaks \"\(language ?? "")\"; run `forge voices` for all of them.",
                code: .usage)
        }
        let width = voices.map(\.uri.count).max() ?? 0
        for voice in voices {
            let padded = voice.uri.padding(toLength: width, withPad: " ", startingAt: 0)
            print(
                "\(padded)  \(voice.name)\(voice.languages.count > 1 ? "  (also " + voice.languages.dropFirst().joined(separator: ", ") + ")" : "")"
            )
        }
        print(
            "\n\(voices.count) voices (espeak-ng \(espeak.version)). Variants, appended to any voice: \(variants.map(\.id).joined(separator: " "))"
        )
    }
}
