import Foundation
import Testing

@testable import Forge

@Suite("Content keys")
struct ObjectKeyTests {
    let voice = VoiceSettings()
    let audio = AudioSettings()

    func key(
        text: String = "Hello.", voice: VoiceSettings? = nil, audio: AudioSettings? = nil,
        engineVersion: String = "1.51"
    ) -> String {
        ObjectKey.audio(
            text: text, voice: voice ?? self.voice, audio: audio ?? self.audio, engineVersion: engineVersion)
    }

    /// Keys are pinned: a change to the canonical JSON or to the fields of an audio key silently
    /// re-synthesizes every user's book (and misses every shared cache), so it must be deliberate.
    @Test func keysAreTheSameAsEverForTheSameInputs() {
        #expect(
            ObjectKey.canonicalJSON(["text": "Say \"hi\"\n\u{1}é", "a": "1"])
                == #"{"a":"1","text":"Say \"hi\"\n\u0001é"}"#)
        #expect(key() == "0bed91b7cb86d73828d53631d43cd7588d478877d82638b820039590c35ae808")
        #expect(ObjectKey.events(audioKey: key()) == "b61a96ad6423dece740c4d1630b03c5f6fc654b626fc5e2a8653dcc34259810b")
        #expect(
            ObjectKey.alignment(eventsKey: "e", text: "Hello.")
                == "71212ae7c78d1bb8a96a971426a9852eb1f11059a220959c86962d83ffe62fa2")
        // A recipe at another rate than espeak-ng's names the resampler, so libsoxr's output has keys of its own.
        #expect(key(audio: AudioSettings(format: .wav, sampleRate: 24_000)) != key())
    }

    @Test func everyShapingInputChangesTheKey() {
        var variants: [String] = [key()]
        variants.append(key(text: "Hello!"))
        variants.append(key(engineVersion: "1.52"))
        for change in [
            { (v: inout VoiceSettings) in v.id = "en-gb" }, { $0.rate = 176 }, { $0.pitch = 51 }, { $0.volume = 99 },
            { $0.engine = "other" },
        ] {
            var changed = voice
            change(&changed)
            variants.append(key(voice: changed))
        }
        variants.append(key(audio: AudioSettings(format: .flac, sampleRate: 22050)))
        variants.append(key(audio: AudioSettings(format: .wav, sampleRate: 16000)))
        #expect(Set(variants).count == variants.count)
    }

    @Test func eventsAndAlignmentKeysFollowTheirInputs() {
        let audioKey = key()
        #expect(ObjectKey.events(audioKey: audioKey) == ObjectKey.events(audioKey: audioKey))
        #expect(ObjectKey.events(audioKey: audioKey) != ObjectKey.events(audioKey: key(text: "Bye.")))
        #expect(ObjectKey.events(audioKey: audioKey) != audioKey)
        let events = ObjectKey.events(audioKey: audioKey)
        #expect(
            ObjectKey.alignment(eventsKey: events, text: "Hello.")
                != ObjectKey.alignment(eventsKey: events, text: "Hello!"))
    }

    @Test func objectPathsShardByTheFirstTwoHexDigits() {
        let path = ObjectStore.relativePath(key: key(), fileExtension: "wav")
        #expect(path == "objects/\(key().prefix(2))/\(key().dropFirst(2)).wav")
    }
}

@Suite("Canonical key descriptions")
struct CanonicalJSONTests {
    @Test func canonicalJSONIsValidSortedAndRoundTrips() throws {
        let fields = ["text": "He said \"no\"\\ then\n\t\u{1}left — café 東京", "b": "2", "a": "1"]
        let json = ObjectKey.canonicalJSON(fields)
        #expect(json.hasPrefix(#"{"a":"1","b":"2","text":"#))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded == fields)
    }
}
