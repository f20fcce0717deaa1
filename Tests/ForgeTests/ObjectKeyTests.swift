import Foundation
import Testing

@testable import Forge

@Suite("Content keys")
struct ObjectKeyTests {
    let voice = VoiceSettings()
    let audio = AudioSettings()

    func key(text: String = "Hello.", voice: VoiceSettings? = nil, audio: AudioSettings? = nil, engineVersion: String = "1.51") -> String {
        ObjectKey.audio(text: text, voice: voice ?? self.voice, audio: audio ?? self.audio, engineVersion: engineVersion)
    }

    @Test func sameInputsSameKey() {
        #expect(key() == key())
        #expect(key().count == 64)
        #expect(key().allSatisfy { "0123456789abcdef".contains($0) })
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
        #expect(ObjectKey.alignment(eventsKey: events, text: "Hello.") != ObjectKey.alignment(eventsKey: events, text: "Hello!"))
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
