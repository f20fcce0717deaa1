import ArgumentParser
import Forge

/// `forge say --voice`: a voice name (`en-us+klatt`) or a voice URI
/// (`espeak-ng:en-us+klatt?rate=170`), whose engine and parameters are checked as the command
/// line is parsed, so a bad one is a usage error naming `--voice` and what is wrong with it.
enum VoiceArgument: ExpressibleByArgument {
    case name(String)
    case uri(String)

    init(parsing text: String) throws(ValidationError) {
        guard text.contains(":") else {
            self = .name(text)
            return
        }
        do {
            _ = try VoiceURI.parse(text)
        } catch {
            throw ValidationError(error.message)
        }
        self = .uri(text)
    }

    init?(argument: String) {
        guard let parsed = try? Self(parsing: argument) else { return nil }
        self = parsed
    }

    /// The voice it names: a name takes `rate` and `pitch`; a URI's parameters override them.
    func settings(rate: Int, pitch: Int) -> VoiceSettings {
        switch self {
        case .name(let id):
            return VoiceSettings(id: id, rate: rate, pitch: pitch)
        case .uri(let text):
            let base = VoiceSettings(id: VoiceSettings().id, rate: rate, pitch: pitch)
            // Checked when parsed; the base only fills in what the URI leaves out.
            return (try? VoiceURI.parse(text, base: base)) ?? base
        }
    }
}
