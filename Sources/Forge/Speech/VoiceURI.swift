/// Parses portable voice names: `engine:voice?parameter=value&…`, e.g.
/// `espeak-ng:en-us+klatt?rate=170&pitch=45`. The engine and voice are required; `rate`,
/// `pitch` and `volume` are optional and checked against the engine's ranges.
package enum VoiceURI {
    /// Why a voice URI was refused, in words for a person; the caller adds where it was written.
    package struct Problem: Error, Sendable, Equatable {
        package var message: String
    }

    package static let parameters = ["rate", "pitch", "volume"]

    /// The voice a URI names, starting from `base` for the parameters it leaves out.
    /// - Parameter commandEngines: the names of the recipe's command engines, whose voices take any
    ///   `name=value` parameters (passed to the engine as they are).
    package static func parse(_ text: String, base: VoiceSettings = VoiceSettings(), commandEngines: Set<String> = [])
        throws(Problem) -> VoiceSettings
    {
        guard let colon = text.firstIndex(of: ":") else {
            throw Problem(message: "\"\(text)\" has no engine; write it as engine:voice, e.g. \"espeak-ng:\(text)\"")
        }
        var voice = base
        voice.engine = String(text[..<colon])
        let isCommand = commandEngines.contains(voice.engine)
        guard VoiceSettings.supportedEngines.contains(voice.engine) || isCommand else {
            let known = VoiceSettings.supportedEngines + commandEngines.sorted()
            throw Problem(
                message:
                    "the engine \"\(voice.engine)\" is not one Forge runs (engines: \(known.joined(separator: ", ")); declare a command engine under \"engines\")"
            )
        }
        if isCommand && base.engine != voice.engine { voice.options = [:] }
        let rest = text[text.index(after: colon)...]
        let query = rest.firstIndex(of: "?")
        voice.id = String(rest[..<(query ?? rest.endIndex)])
        guard !voice.id.isEmpty, !voice.id.contains(where: { $0 == " " || $0 == "&" || $0 == "=" }) else {
            throw Problem(
                message: "\"\(text)\" names no voice after \"\(voice.engine):\"; e.g. \"\(voice.engine):en-us\"")
        }
        guard let query else { return voice }
        var seen = Set<String>()
        for pair in rest[rest.index(after: query)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if isCommand {
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw Problem(message: "\"\(pair)\" in \"\(text)\" is not name=value")
                }
                guard seen.insert(parts[0]).inserted else {
                    throw Problem(message: "\"\(parts[0])\" is given twice in \"\(text)\"")
                }
                voice.options[parts[0]] = parts[1].removingPercentEncoding ?? parts[1]
                continue
            }
            guard parts.count == 2, let number = Int(parts[1]) else {
                throw Problem(message: "\"\(pair)\" in \"\(text)\" is not name=integer")
            }
            guard seen.insert(parts[0]).inserted else {
                throw Problem(message: "\"\(parts[0])\" is given twice in \"\(text)\"")
            }
            let range: ClosedRange<Int>
            switch parts[0] {
            case "rate":
                range = VoiceSettings.allowedRates
                voice.rate = number
            case "pitch":
                range = VoiceSettings.allowedPitches
                voice.pitch = number
            case "volume":
                range = VoiceSettings.allowedVolumes
                voice.volume = number
            default:
                throw Problem(
                    message:
                        "\"\(parts[0])\" in \"\(text)\" is not a voice parameter (parameters: \(parameters.joined(separator: ", ")))"
                )
            }
            guard range.contains(number) else {
                throw Problem(
                    message: "\(parts[0])=\(number) in \"\(text)\" is outside \(range.lowerBound)–\(range.upperBound)")
            }
        }
        return voice
    }
}
