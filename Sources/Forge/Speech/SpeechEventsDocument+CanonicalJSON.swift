import Foundation

/// The events document's JSON written and read directly, for the shape synthesis makes: a book has
/// hundreds of thousands of events, and Foundation's coders spent about a second of a 121k-word
/// build's CPU on them. The bytes are exactly those `JSONEncoder` writes with sorted keys; any
/// other document (phonemes, strings that need escaping, JSON another tool wrote) goes through
/// Foundation's coders.
extension SpeechEventsDocument {
    /// The canonical bytes, or nil when the document needs Foundation's encoder.
    func canonicalJSON() -> Data? {
        guard phonemes == nil, Self.isPlain(audioKey), Self.isPlain(engine), Self.isPlain(engineVersion) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + events.count * 20)
        bytes.append(contentsOf: #"{"audioKey":""#.utf8)
        bytes.append(contentsOf: audioKey.utf8)
        bytes.append(contentsOf: #"","durationMs":"#.utf8)
        Self.append(durationMs, to: &bytes)
        bytes.append(contentsOf: #","engine":""#.utf8)
        bytes.append(contentsOf: engine.utf8)
        bytes.append(contentsOf: #"","engineVersion":""#.utf8)
        bytes.append(contentsOf: engineVersion.utf8)
        bytes.append(contentsOf: #"","events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: #"[""#.utf8)
            bytes.append(contentsOf: event.kind.rawValue.utf8)
            bytes.append(contentsOf: #"","#.utf8)
            Self.append(event.textPosition, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            Self.append(event.length, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            Self.append(event.audioMs, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(contentsOf: #"],"sampleRate":"#.utf8)
        Self.append(sampleRate, to: &bytes)
        if let wordsTimed { bytes.append(contentsOf: (wordsTimed ? #","wordsTimed":true"# : #","wordsTimed":false"#).utf8) }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    /// The document in canonical bytes, or nil when they are not exactly what ``canonicalJSON()``
    /// writes (then Foundation's decoder reads them).
    static func canonical(_ bytes: UnsafeRawBufferPointer) -> SpeechEventsDocument? {
        var reader = CanonicalReader(bytes: bytes)
        guard reader.expect(#"{"audioKey":""#), let audioKey = reader.plainString(),
              reader.expect(#","durationMs":"#), let durationMs = reader.integer(),
              reader.expect(#","engine":""#), let engine = reader.plainString(),
              reader.expect(#","engineVersion":""#), let engineVersion = reader.plainString(),
              reader.expect(#","events":["#)
        else { return nil }
        var events: [SynthesisEvent] = []
        if !reader.expect("]") {
            repeat {
                guard reader.expect(#"[""#), let kindName = reader.plainString(), let kind = SynthesisEvent.Kind(rawValue: kindName),
                      reader.expect(","), let textPosition = reader.integer(), reader.expect(","), let length = reader.integer(),
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
            engine: engine, engineVersion: engineVersion, audioKey: audioKey, durationMs: durationMs, sampleRate: sampleRate,
            events: events, wordsTimed: wordsTimed)
    }

    /// Printable ASCII that JSON writes as it is (no quote, backslash or slash, which Foundation escapes).
    private static func isPlain(_ string: String) -> Bool {
        string.utf8.allSatisfy(isPlain)
    }

    fileprivate static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
    }

    private static func append(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }
}

/// Reads canonical JSON bytes front to back; every method leaves the position unchanged on a mismatch.
private struct CanonicalReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func expect(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            memcmp(bytes.baseAddress! + position, expected.baseAddress!, count) == 0
        }
        if matches { position += count }
        return matches
    }

    /// Characters up to a closing quote (consumed), all of them plain; nil at an escape or anything else.
    mutating func plainString() -> String? {
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard SpeechEventsDocument.isPlain(bytes[end]) else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
        position = end + 1
        return string
    }

    /// An integer as JSON writes one (no leading zeros, at most 18 digits).
    mutating func integer() -> Int? {
        var index = position
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let first = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), index - first < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - first
        guard digits > 0, !(digits > 1 && bytes[first] == UInt8(ascii: "0")) else { return nil }
        // More digits than 18, a fraction or an exponent: Foundation reads it.
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "0")...UInt8(ascii: "9"): return nil
            default: break
            }
        }
        position = index
        return negative ? -value : value
    }
}
