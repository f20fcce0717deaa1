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
            var json = DirectJSON.Writer(capacity: text.utf8.count + 420)
            json.raw(#"{"itemID":""#)
            json.plain(itemID)
            json.raw(#"","text":"#)
            json.quoted(text)
            json.raw(#","voice":{"engine":""#)
            json.plain(voice.engine)
            json.raw(#"","id":""#)
            json.plain(voice.id)
            json.raw(#"","rate":"#)
            json.integer(voice.rate)
            json.raw(#","pitch":"#)
            json.integer(voice.pitch)
            json.raw(#","volume":"#)
            json.integer(voice.volume)
            json.raw(#","options":{}},"audio":{"format":""#)
            json.plain(audio.format.rawValue)
            json.raw(#"","sampleRate":"#)
            json.integer(audio.sampleRate)
            json.raw(#"},"audioKey":""#)
            json.plain(audioKey)
            json.raw(#"","eventsKey":""#)
            json.plain(eventsKey)
            json.raw(
                phonemeInput
                    ? #"","phonemeInput":true,"engineVersion":""# : #"","phonemeInput":false,"engineVersion":""#)
            json.plain(engineVersion)
            json.raw("\"}\n")
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
