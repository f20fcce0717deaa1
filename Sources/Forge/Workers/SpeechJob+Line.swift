import Foundation

/// A job's line, one per item of a build: written and read directly (``DirectJSON``) for the
/// common shape (the built-in engine or a command engine's voice without options, the text any
/// string), else Foundation's JSON; every line stays JSON any reader takes.
extension SpeechJob {
    /// The job as one JSON line, ending in a newline.
    package var line: Data? {
        if commandEngine == nil, voice.options.isEmpty,
            [itemID, voice.engine, voice.id, audio.format.rawValue, audioKey, eventsKey, engineVersion].allSatisfy({
                DirectJSON.isPlain($0, slashes: true)
            })
        {
            // Declaration order, as the direct reader expects; the text is the one string that may need escapes.
            var json = JSONWriter(escaping: .canonical, sortedKeys: false, capacity: text.utf8.count + 420)
            json.object { line in
                line.field("itemID", itemID)
                line.field("text", text)
                line.object("voice") { entry in
                    entry.field("engine", voice.engine)
                    entry.field("id", voice.id)
                    entry.field("rate", voice.rate)
                    entry.field("pitch", voice.pitch)
                    entry.field("volume", voice.volume)
                    entry.object("options") { _ in }
                }
                line.object("audio") { entry in
                    entry.field("format", audio.format.rawValue)
                    entry.field("sampleRate", audio.sampleRate)
                }
                line.field("audioKey", audioKey)
                line.field("eventsKey", eventsKey)
                line.field("phonemeInput", phonemeInput)
                line.field("engineVersion", engineVersion)
            }
            json.newline()
            return Data(json.bytes)
        }
        return DirectJSON.foundationLine(self)
    }

    /// Reads a job line (without its newline).
    package static func decode(line: [UInt8]) throws -> SpeechJob {
        if let job = direct(line: line) { return job }
        return try JSONDecoder().decode(SpeechJob.self, from: Data(line))
    }

    /// Reads a line as ``line`` writes a job directly; nil for anything else.
    static func direct(line: [UInt8]) -> SpeechJob? {
        line.withUnsafeBytes { bytes -> SpeechJob? in
            var reader = DirectJSON.Reader(bytes: bytes)
            guard reader.expect(#"{"itemID":""#), let itemID = reader.plainString(slashes: true),
                reader.expect(#","text":""#), let text = reader.string(),
                reader.expect(#","voice":{"engine":""#), let engine = reader.plainString(slashes: true),
                reader.expect(#","id":""#), let id = reader.plainString(slashes: true),
                reader.expect(#","rate":"#), let rate = reader.integer(),
                reader.expect(#","pitch":"#), let pitch = reader.integer(),
                reader.expect(#","volume":"#), let volume = reader.integer(),
                reader.expect(#","options":{}},"audio":{"format":""#),
                let formatName = reader.plainString(slashes: true),
                let format = AudioSettings.Format(rawValue: formatName),
                reader.expect(#","sampleRate":"#), let sampleRate = reader.integer(),
                reader.expect(#"},"audioKey":""#), let audioKey = reader.plainString(slashes: true),
                reader.expect(#","eventsKey":""#), let eventsKey = reader.plainString(slashes: true)
            else { return nil }
            let phonemeInput: Bool
            if reader.expect(#","phonemeInput":true"#) {
                phonemeInput = true
            } else if reader.expect(#","phonemeInput":false"#) {
                phonemeInput = false
            } else {
                return nil
            }
            guard reader.expect(#","engineVersion":""#), let engineVersion = reader.plainString(slashes: true),
                reader.expect("}"), reader.isAtEnd
            else { return nil }
            return SpeechJob(
                itemID: itemID, text: text,
                voice: VoiceSettings(engine: engine, id: id, rate: rate, pitch: pitch, volume: volume),
                audio: AudioSettings(format: format, sampleRate: sampleRate), audioKey: audioKey, eventsKey: eventsKey,
                phonemeInput: phonemeInput, engineVersion: engineVersion)
        }
    }
}
