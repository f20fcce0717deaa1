import Foundation

extension SpeechServiceCall {
    /// ElevenLabs' `/with-timestamps` answer: the audio, and each character's times.
    struct TimestampedAnswer: Decodable {
        struct Alignment: Decodable {
            var characters: [String]
            var characterStartTimesSeconds: [Double]
            var characterEndTimesSeconds: [Double]

            enum CodingKeys: String, CodingKey {
                case characters
                case characterStartTimesSeconds = "character_start_times_seconds"
                case characterEndTimesSeconds = "character_end_times_seconds"
            }
        }
        var audioBase64: String
        var alignment: Alignment?

        enum CodingKeys: String, CodingKey {
            case audioBase64 = "audio_base64"
            case alignment
        }
    }

    /// The samples of a `/with-timestamps` answer (16-bit little-endian PCM at
    /// ``elevenLabsSampleRate``), with word timings from its characters' when they spell `text`.
    static func timedSpeech(from body: Data, text: String) throws(SpeechServiceFailure) -> SynthesizedSpeech {
        let answer: TimestampedAnswer
        do {
            answer = try JSONDecoder().decode(TimestampedAnswer.self, from: body)
        } catch {
            throw .item("the service's answer is not the JSON of a timed reading (audio_base64, alignment)")
        }
        guard let bytes = Data(base64Encoded: answer.audioBase64), !bytes.isEmpty, bytes.count % 2 == 0 else {
            throw .item("its audio could not be read: audio_base64 is not whole 16-bit samples")
        }
        let samples = bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
        let durationMs = samples.count * 1000 / elevenLabsSampleRate
        let words = answer.alignment.map { wordTimes($0, text: text) } ?? []
        let events = CommandEngine.events(
            from: words, textLength: text.unicodeScalars.count, durationMs: durationMs)
        return SynthesizedSpeech(
            samples: samples, sampleRate: elevenLabsSampleRate, events: events, wordsTimed: !events.isEmpty)
    }

    /// Each run of characters between white space as a word, timed from its first character's
    /// start to its last's end; none when the characters do not spell the text that was sent.
    static func wordTimes(_ alignment: TimestampedAnswer.Alignment, text: String) -> [CommandEngineProtocol.WordTime] {
        let count = alignment.characters.count
        guard count == alignment.characterStartTimesSeconds.count, count == alignment.characterEndTimesSeconds.count,
            alignment.characters.joined() == text
        else { return [] }
        var words: [CommandEngineProtocol.WordTime] = []
        var offset = 0
        var current: CommandEngineProtocol.WordTime?
        for index in 0..<count {
            let character = alignment.characters[index]
            let length = character.unicodeScalars.count
            defer { offset += length }
            let startMs = Int((alignment.characterStartTimesSeconds[index] * 1000).rounded())
            let endMs = Int((alignment.characterEndTimesSeconds[index] * 1000).rounded())
            if character.allSatisfy(\.isWhitespace) {
                if let word = current { words.append(word) }
                current = nil
            } else if var word = current {
                word.end = offset + length
                word.endMs = max(word.endMs, endMs)
                current = word
            } else {
                current = CommandEngineProtocol.WordTime(
                    start: offset, end: offset + length, startMs: startMs, endMs: endMs)
            }
        }
        if let word = current { words.append(word) }
        return words
    }
}
