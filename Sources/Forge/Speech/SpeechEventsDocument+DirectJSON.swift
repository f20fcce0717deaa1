import Foundation

/// The events document's JSON written and read directly, for the shape synthesis makes: a book has
/// hundreds of thousands of events, and Foundation's coders spent about a second of a 121k-word
/// build's CPU on them. The bytes are exactly those `JSONEncoder` writes with sorted keys; any
/// other document (phonemes, strings that need escaping, JSON another tool wrote) goes through
/// Foundation's coders.
extension SpeechEventsDocument {
    /// The bytes Foundation would write, or nil when the document needs Foundation's encoder.
    func directJSON() -> Data? {
        guard phonemes == nil, [audioKey, engine, engineVersion].allSatisfy({ DirectJSON.isPlain($0, slashes: false) })
        else { return nil }
        var json = JSONWriter(escaping: .foundation(escapingSlashes: true), capacity: 160 + events.count * 20)
        json.object { document in
            document.field("audioKey", audioKey)
            document.field("durationMs", durationMs)
            document.field("engine", engine)
            document.field("engineVersion", engineVersion)
            document.array("events") { list in
                for event in events {
                    list.array { entry in
                        entry.value(event.kind.rawValue)
                        entry.value(event.textPosition)
                        entry.value(event.length)
                        entry.value(event.audioMs)
                    }
                }
            }
            document.field("sampleRate", sampleRate)
            document.field("wordsTimed", ifPresent: wordsTimed)
        }
        return Data(json.bytes)
    }

    /// The document in the bytes ``directJSON()`` writes, or nil when they are not exactly those
    /// (then Foundation's decoder reads them).
    static func direct(_ bytes: UnsafeRawBufferPointer) -> SpeechEventsDocument? {
        var reader = DirectJSON.Reader(bytes: bytes)
        guard reader.expect(#"{"audioKey":""#), let audioKey = reader.plainString(slashes: false),
            reader.expect(#","durationMs":"#), let durationMs = reader.integer(),
            reader.expect(#","engine":""#), let engine = reader.plainString(slashes: false),
            reader.expect(#","engineVersion":""#), let engineVersion = reader.plainString(slashes: false),
            reader.expect(#","events":["#)
        else { return nil }
        var events: [SynthesisEvent] = []
        if !reader.expect("]") {
            repeat {
                guard reader.expect(#"[""#), let kindName = reader.plainString(slashes: false),
                    let kind = SynthesisEvent.Kind(rawValue: kindName),
                    reader.expect(","), let textPosition = reader.integer(), reader.expect(","),
                    let length = reader.integer(),
                    reader.expect(","), let audioMs = reader.integer(), reader.expect("]")
                else { return nil }
                events.append(SynthesisEvent(kind: kind, textPosition: textPosition, length: length, audioMs: audioMs))
            } while reader.expect(",")
            guard reader.expect("]") else { return nil }
        }
        guard reader.expect(#","sampleRate":"#), let sampleRate = reader.integer() else { return nil }
        var wordsTimed: Bool? = nil
        if reader.expect(#","wordsTimed":true"#) {
            wordsTimed = true
        } else if reader.expect(#","wordsTimed":false"#) {
            wordsTimed = false
        }
        guard reader.expect("}"), reader.isAtEnd else { return nil }
        return SpeechEventsDocument(
            engine: engine, engineVersion: engineVersion, audioKey: audioKey, durationMs: durationMs,
            sampleRate: sampleRate,
            events: events, wordsTimed: wordsTimed)
    }
}
