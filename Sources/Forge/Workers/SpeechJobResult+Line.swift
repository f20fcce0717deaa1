import Foundation

/// An answer's line. A synthesized item's answer is written and read without Foundation's coders
/// (``DirectJSON``), its events document last and as the events object's own bytes, so a
/// worker encodes the document once (for the object); any other answer (a failure, a string that
/// needs escaping) is Foundation's JSON, and so is anything the direct reader does not recognize.
extension SpeechJobResult {
    /// The answer as one JSON line, ending in a newline; `documentJSON` is ``document`` as already
    /// encoded (nil to encode it here).
    package func line(documentJSON: Data? = nil) -> Data? {
        if error == nil, let audio, let events, let document, DirectJSON.isPlain(itemID, slashes: true),
            audio.isDirectlyWritable, events.isDirectlyWritable
        {
            let documentBytes = documentJSON ?? document.encoded()
            var json = JSONWriter(escaping: .canonical, sortedKeys: false, capacity: 700 + documentBytes.count)
            json.object { line in
                line.field("itemID", itemID)
                line.object("audio") { audio.writeMembers(to: &$0) }
                line.object("events") { events.writeMembers(to: &$0) }
                line.field("document", json: documentBytes)
            }
            json.newline()
            return Data(json.bytes)
        }
        return DirectJSON.foundationLine(self)
    }

    /// Reads an answer line (without its newline); nil when it is not one.
    package static func decode(line: [UInt8]) -> SpeechJobResult? {
        direct(line: line) ?? (try? JSONDecoder().decode(SpeechJobResult.self, from: Data(line)))
    }

    /// Reads a line as ``line(documentJSON:)`` writes a synthesized item's answer directly; nil for anything else.
    static func direct(line: [UInt8]) -> SpeechJobResult? {
        line.withUnsafeBytes { bytes -> SpeechJobResult? in
            var reader = DirectJSON.Reader(bytes: bytes)
            guard reader.expect(#"{"itemID":""#), let itemID = reader.plainString(slashes: true),
                reader.expect(#","audio":"#), let audio = StoredObject.direct(from: &reader),
                reader.expect(#","events":"#), let events = StoredObject.direct(from: &reader),
                reader.expect(#","document":"#), bytes.count > reader.position,
                bytes[bytes.count - 1] == UInt8(ascii: "}"),
                let document = SpeechEventsDocument.direct(
                    UnsafeRawBufferPointer(rebasing: bytes[reader.position..<(bytes.count - 1)]))
            else { return nil }
            return SpeechJobResult(itemID: itemID, audio: audio, events: events, document: document)
        }
    }
}
