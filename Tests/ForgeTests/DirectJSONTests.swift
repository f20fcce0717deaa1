import Foundation
import Testing

@testable import Forge

/// Events documents, workers' answers and notices are written and read without Foundation's coders in the
/// shape synthesis makes; the bytes must stay exactly what `JSONEncoder` with sorted keys writes
/// (events objects from earlier builds and other tools are read alike), and anything else must
/// still go through Foundation.
@Suite struct DirectJSONTests {
    static func foundationBytes(_ document: SpeechEventsDocument) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(document)
    }

    /// A document of `count` events whose numbers vary with `seed` (a negative time among them).
    static func synthesized(events count: Int, seed: Int, wordsTimed: Bool? = nil) -> SpeechEventsDocument {
        let kinds: [SynthesisEvent.Kind] = [.word, .sentence, .end]
        let events = (0..<count).map { index in
            let mixed = (index + 1) &* 2_654_435_761 &+ seed &* 40_503
            return SynthesisEvent(
                kind: kinds[(index + seed) % 3], textPosition: mixed % 5_001, length: (mixed / 7) % 41,
                audioMs: index == 1 ? -3 : mixed % 9_000_000)
        }
        return SpeechEventsDocument(
            engine: "espeak-ng", engineVersion: "1.51", audioKey: String(repeating: "0123456789abcdef", count: 4),
            durationMs: (seed &* 7_919) % 600_000, sampleRate: 22_050, events: events, wordsTimed: wordsTimed)
    }

    @Test(arguments: [(0, nil), (1, nil), (13, true), (400, false), (2_000, nil)] as [(Int, Bool?)])
    func synthesizedDocumentsAreFoundationsBytesAndReadBackWithoutIt(events: Int, wordsTimed: Bool?) throws {
        let document = Self.synthesized(events: events, seed: events + 7, wordsTimed: wordsTimed)
        let direct = try #require(document.directJSON(), "the direct writer declined a document synthesis makes")
        #expect(direct == (try Self.foundationBytes(document)))
        #expect(document.encoded() == direct)
        let read = try #require(
            direct.withUnsafeBytes { SpeechEventsDocument.direct($0) }, "the direct reader declined its own bytes")
        #expect(read == document)
        #expect(try SpeechEventsDocument.decode(direct) == document)
    }

    @Test func documentsOfOtherShapesGoThroughFoundation() throws {
        var phonemes = Self.synthesized(events: 3, seed: 1)
        phonemes.phonemes = [CommandEngineProtocol.PhonemeTime(phoneme: "h", startMs: 0, endMs: 40)]
        var slash = Self.synthesized(events: 3, seed: 2)
        slash.engine = "cmd/piper \"x\""
        var accented = Self.synthesized(events: 3, seed: 3)
        accented.engineVersion = "1.51-é"
        for document in [phonemes, slash, accented] {
            #expect(document.directJSON() == nil)
            let bytes = document.encoded()
            #expect(bytes == (try Self.foundationBytes(document)))
            #expect(bytes.withUnsafeBytes { SpeechEventsDocument.direct($0) } == nil)
            #expect(try SpeechEventsDocument.decode(bytes) == document)
        }
        // The same document as another tool might write it: spaces, other key order, a float.
        let document = Self.synthesized(events: 2, seed: 4, wordsTimed: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        let pretty = try encoder.encode(document)
        #expect(pretty.withUnsafeBytes { SpeechEventsDocument.direct($0) } == nil)
        #expect(try SpeechEventsDocument.decode(pretty) == document)
        var text = String(decoding: try Self.foundationBytes(document), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"sampleRate\":22050", with: "\"sampleRate\":22050.0")
        #expect(Data(text.utf8).withUnsafeBytes { SpeechEventsDocument.direct($0) } == nil)
        #expect(try SpeechEventsDocument.decode(Data(text.utf8)).sampleRate == 22_050)
        for damaged in [
            #"{"audioKey":"a","durationMs":01"#,
            #"{"audioKey":"a","durationMs":1,"engine":"e","engineVersion":"v","events":[["w",1,2,3]"#,
        ] {
            #expect(Data(damaged.utf8).withUnsafeBytes { SpeechEventsDocument.direct($0) } == nil)
            #expect(throws: (any Error).self) { try SpeechEventsDocument.decode(Data(damaged.utf8)) }
        }
    }

    @Test func answersCarryTheEventsObjectsBytesAndReadBack() throws {
        let document = Self.synthesized(events: 50, seed: 9, wordsTimed: true)
        let audio = StoredObject(
            key: String(repeating: "ab", count: 32), path: "objects/ab/cd.wav", role: .audio, bytes: 123_456,
            sha256: "00ff", mimeType: "audio/wav",
            durationMs: 2_800, sampleRate: 22_050, frames: 61_740)
        let events = StoredObject(
            key: "k", path: "objects/cd/ef.json", role: .events, bytes: 10, sha256: "00", mimeType: "application/json")
        let answer = SpeechJobResult(itemID: "p1a2b3c4d5e6f", audio: audio, events: events, document: document)
        let line = try #require(answer.line(documentJSON: document.encoded()))
        #expect(line.last == UInt8(ascii: "\n"))
        let body = Array(line.dropLast())
        // Written directly, the document last and as the events object's bytes, as they are.
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"itemID":"p1a2b3c4d5e6f","audio":{"key":""#))
        #expect(text.hasSuffix(#","document":"# + String(decoding: document.encoded(), as: UTF8.self) + "}"))
        #expect(SpeechJobResult.direct(line: body) == answer, "the direct reader declined the direct writer's line")
        #expect(SpeechJobResult.decode(line: body) == answer)
        // Still JSON any reader takes.
        #expect(try JSONDecoder().decode(SpeechJobResult.self, from: Data(body)) == answer)
        // Each object's optional fields, present or not, read back as written.
        for object in [audio, events] {
            var json = JSONWriter(escaping: .canonical, sortedKeys: false)
            #expect(object.appendDirectJSON(to: &json))
            #expect(try JSONDecoder().decode(StoredObject.self, from: Data(json.bytes)) == object)
            let read = json.bytes.withUnsafeBytes { bytes -> StoredObject? in
                var reader = DirectJSON.Reader(bytes: bytes)
                return StoredObject.direct(from: &reader)
            }
            #expect(read == object)
        }
        // Answers the direct writer declines are Foundation's JSON, and read back all the same.
        let failed = SpeechJobResult(itemID: "x", error: #"bad ,"document":{"audioKey":"#)
        let failedLine = try #require(failed.line())
        #expect(try JSONDecoder().decode(SpeechJobResult.self, from: failedLine) == failed)
        #expect(SpeechJobResult.decode(line: Array(failedLine.dropLast())) == failed)
        var quoted = answer
        quoted.audio?.path = #"objects/ab/"odd".wav"#
        let quotedLine = try #require(quoted.line())
        #expect(SpeechJobResult.decode(line: Array(quotedLine.dropLast())) == quoted)
        #expect(SpeechJobResult.decode(line: Array(#"{"itemID":"#.utf8)) == nil)
    }

    @Test(arguments: [false, true])
    func jobsReadBackWhateverTheText(phonemeInput: Bool) throws {
        let texts = [
            "A plain sentence.", #"She said, "Hi" \ back/slash"#, "line\nbreak\ttab\u{01}end", "émoji 👩‍👩‍👧 漢字", "",
        ]
        for text in texts {
            let job = SpeechJob(
                itemID: "p1a2b3c4d5e6f", text: text,
                voice: VoiceSettings(id: "en-us+klatt", rate: 180, pitch: 40, volume: 90),
                audio: AudioSettings(format: .flac, sampleRate: 24_000), audioKey: String(repeating: "a", count: 64),
                eventsKey: String(repeating: "b", count: 64), phonemeInput: phonemeInput, engineVersion: "1.51")
            let line = try #require(job.line)
            let body = Array(line.dropLast())
            #expect(
                SpeechJob.direct(line: body) == job,
                "the direct reader declined the direct writer's line for \(text.debugDescription)")
            #expect(try SpeechJob.decode(line: body) == job)
            #expect(try JSONDecoder().decode(SpeechJob.self, from: Data(body)) == job)
        }
        // Voice options are Foundation's JSON, and read back all the same.
        var withOptions = SpeechJob(
            itemID: "x", text: "t", voice: VoiceSettings(engine: "piper", id: "amy", options: ["speaker": "3"]),
            audio: AudioSettings(),
            audioKey: "k", eventsKey: "e")
        withOptions.phonemeInput = phonemeInput
        let line = Array(try #require(withOptions.line).dropLast())
        #expect(SpeechJob.direct(line: line) == nil)
        #expect(try SpeechJob.decode(line: line) == withOptions)
    }

    @Test func escapesAreReadAsJSONDefinesThem() {
        func read(_ literal: String) -> String? {
            Array(literal.utf8).withUnsafeBytes { bytes in
                var reader = DirectJSON.Reader(bytes: bytes)
                return reader.string()
            }
        }
        #expect(read(#"a\u00e9\ud83d\ude00\/\b\f\"\\x""#) == "aé😀/\u{08}\u{0C}\"\\x")
        #expect(read(#"tail"#) == nil)
        #expect(read(#"\ud83d""#) == nil)
        #expect(read(#"\x""#) == nil)
        #expect(read("tab\there\"") == nil)
    }

    @Test func noticesReadBackWhateverTheItemID() throws {
        for id in ["p1a2b3c4d5e6f", "chapter-1/p2", #"odd "id" \ here"#, "é"] {
            let line = try #require(SpeechWorkerNotice(started: id).line)
            #expect(line.starts(with: SpeechWorkerNotice.prefix))
            #expect(SpeechWorkerNotice.decode(line: Array(line.dropLast()))?.started == id)
            #expect(
                (SpeechWorkerNotice.direct(line: Array(line.dropLast())) != nil)
                    == DirectJSON.isPlain(id, slashes: true))
            #expect(try JSONDecoder().decode(SpeechWorkerNotice.self, from: line).started == id)
        }
    }
}
