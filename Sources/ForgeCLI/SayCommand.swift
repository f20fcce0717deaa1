import ArgumentParser
import Forge
import Foundation

/// `forge say "text" -o file.wav`: a one-off, with no recipe and no output directory.
struct SayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speak a text straight into an audio file (no recipe, no manifest).",
        discussion: """
            The format follows the output's extension: .wav, .flac, .ogg, .mp3 or .opus (Opus at 48 kHz unless --sample-rate says 8000, 16000 or 24000). Give "-" as the text
            to read it from standard input. The voice defaults to the one a recipe in --language would use.
            """)

    @Argument(help: "The text to speak, or \"-\" to read it from standard input.")
    var text: String

    @Option(
        name: [.short, .long], help: "The audio file to write.",
        completion: .file(extensions: ["wav", "flac", "ogg", "mp3", "opus"]))
    var output: String

    @Option(name: .long, help: "BCP 47 language of the text (picks the default voice).")
    var language = "en"

    @Option(
        name: .long,
        help: "Voice name or URI, e.g. en-us+klatt or espeak-ng:en-us+klatt?rate=170 (default: the language's voice).",
        transform: VoiceArgument.init(parsing:))
    var voice: VoiceArgument?

    @Option(
        name: .long,
        help:
            "Speaking rate in words per minute (\(VoiceSettings.allowedRates.lowerBound)–\(VoiceSettings.allowedRates.upperBound))."
    )
    var rate = 175

    @Option(name: .long, help: "Pitch, 0–99.")
    var pitch = 50

    @Option(name: .long, help: "Sample rate of the file in Hz (default 22050; 48000 for .opus).")
    var sampleRate: Int?

    var format: AudioSettings.Format? {
        AudioSettings.Format(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased())
    }

    func validate() throws {
        guard let format else {
            throw ValidationError(
                "--output must end in .wav, .flac, .ogg, .mp3 or .opus (the format follows the extension); found \"\(output)\"."
            )
        }
        try ValidationError.check("--rate", rate, in: VoiceSettings.allowedRates)
        try ValidationError.check("--pitch", pitch, in: VoiceSettings.allowedPitches)
        let rates = format.sampleRates ?? AudioSettings.allowedSampleRates
        if let sampleRate, !rates.contains(sampleRate) {
            throw ValidationError(
                "--sample-rate must be one of \(rates.map(String.init).joined(separator: ", ")) for .\(format.rawValue); found \(sampleRate)."
            )
        }
    }

    func run() throws {
        let spoken =
            text == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : text
        let settings =
            voice?.settings(rate: rate, pitch: pitch)
            ?? VoiceSettings(id: VoiceSettings.defaultID(forLanguage: language), rate: rate, pitch: pitch)
        let url = URL(
            fileURLWithPath: output, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        ).standardizedFileURL
        do {
            let milliseconds = try OneOffSpeech(
                voice: settings, sampleRate: sampleRate ?? (format == .opus ? 48000 : 22050)
            ).speak(spoken, to: url)
            print("wrote \(output) (\(String(format: "%.1f", Double(milliseconds) / 1000)) s, voice \(settings.uri))")
        } catch {
            throw CommandFailure(error)
        }
    }
}
