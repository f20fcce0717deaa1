import Foundation

/// Content keys: the SHA-256 of a canonical description of everything that shaped an object.
/// Change any input and the key changes; change it back and the old object is found again.
public enum ObjectKey {
    /// Bumped whenever the speak stage's output for the same inputs would differ.
    public static let speakStageVersion = 1
    /// Bumped whenever the align stage's word timings for the same inputs would differ.
    public static let alignStageVersion = 1

    /// The key of an item's audio.
    public static func audio(text: String, voice: VoiceSettings, audio: AudioSettings, engineVersion: String) -> String {
        digest([
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
        ])
    }

    /// The key of the synthesizer events recorded while making the audio object `audioKey`.
    public static func events(audioKey: String) -> String {
        digest(["stage": "speak-events", "stageVersion": String(speakStageVersion), "audio": audioKey])
    }

    /// The key of word timings derived from the events object `eventsKey` for `text`.
    public static func alignment(eventsKey: String, text: String) -> String {
        digest([
            "stage": "align", "stageVersion": String(alignStageVersion), "source": "synthesizer",
            "events": eventsKey, "text": text,
        ])
    }

    static func digest(_ fields: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a [String: String] cannot fail.
        let data = (try? encoder.encode(fields)) ?? Data()
        return ContentHash.sha256Hex(data)
    }
}
