import Foundation

/// Content keys: the SHA-256 of a canonical description of everything that shaped an object.
/// Change any input and the key changes; change it back and the old object is found again.
package enum ObjectKey {
    /// Bumped whenever the speak stage's output for the same inputs would differ.
    package static let speakStageVersion = 1
    /// Bumped whenever the align stage's word timings for the same inputs would differ.
    package static let alignStageVersion = 1

    /// The key of an item's audio.
    /// `text` is what the engine reads (after the lexicon); `phonemeInput` says `[[…]]` in it are phonemes.
    /// `resampler` names the converter when the engine's rate may differ from the recipe's (``Resampler/identity``).
    package static func audio(
        text: String, voice: VoiceSettings, audio: AudioSettings, engineVersion: String, phonemeInput: Bool = false,
        resampler: String? = nil
    ) -> String {
        var fields = [
            "stage": "speak",
            "stageVersion": String(speakStageVersion),
            "engine": voice.engine,
            "engineVersion": engineVersion,
            "voice": voice.id,
            "rate": String(voice.rate),
            "pitch": String(voice.pitch),
            "volume": String(voice.volume),
            "format": audio.format.rawValue,
            "sampleRate": String(audio.sampleRate),
            "text": text,
        ]
        // Added only when present, so keys made before command engines and lexicons stay the same.
        if !voice.options.isEmpty {
            fields["options"] = voice.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "&")
        }
        if phonemeInput { fields["phonemeInput"] = "1" }
        if let resampler { fields["resampler"] = resampler }
        return digest(fields)
    }

    /// The key of the synthesizer events recorded while making the audio object `audioKey`.
    package static func events(audioKey: String) -> String {
        digest(["stage": "speak-events", "stageVersion": String(speakStageVersion), "audio": audioKey])
    }

    /// The key of word timings derived from the events object `eventsKey` for `text`.
    package static func alignment(eventsKey: String, text: String) -> String {
        digest([
            "stage": "align", "stageVersion": String(alignStageVersion), "source": "synthesizer",
            "events": eventsKey, "text": text,
        ])
    }

    /// The key of a forced alignment of `text` to the audio object `audioKey` by `aligner`
    /// (``ForcedAligner/identity``: its version and the recognizer model's).
    package static func forcedAlignment(audioKey: String, text: String, aligner: String) -> String {
        digest([
            "stage": "align", "stageVersion": String(alignStageVersion), "source": "forced",
            "audio": audioKey, "aligner": aligner, "text": text,
        ])
    }

    static func digest(_ fields: [String: String]) -> String {
        ContentHash.sha256Hex(canonicalJSONBytes(fields))
    }

    /// The fields as canonical JSON: keys sorted, no white space, strings escaped per RFC 8259.
    static func canonicalJSON(_ fields: [String: String]) -> String {
        String(decoding: canonicalJSONBytes(fields), as: UTF8.self)
    }

    static func canonicalJSONBytes(_ fields: [String: String]) -> [UInt8] {
        var json = JSONWriter(escaping: .canonical, capacity: fields.values.reduce(64) { $0 + $1.utf8.count + 16 })
        json.object { object in
            for key in fields.keys.sorted() { object.field(key, fields[key]!) }
        }
        return json.bytes
    }
}
