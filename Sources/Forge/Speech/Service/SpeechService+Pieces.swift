extension SpeechService {
    /// `text` in pieces of at most `maxCharacters` (Unicode scalars), each ending at a sentence's
    /// end where one is near enough, else at a space; `offset` is where each starts in `text`.
    static func pieces(of text: String, maxCharacters: Int) -> [(offset: Int, text: String)] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > maxCharacters else { return [(0, text)] }
        let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", "…", ";", ":"]
        var pieces: [(offset: Int, text: String)] = []
        var start = 0
        while start < scalars.count {
            while start < scalars.count && scalars[start].properties.isWhitespace { start += 1 }
            guard start < scalars.count else { break }
            var end = scalars.count
            if scalars.count - start > maxCharacters {
                let limit = start + maxCharacters
                let spaces = (start + 1...limit).reversed().filter { scalars[$0].properties.isWhitespace }
                end =
                    spaces.first { sentenceEnds.contains(scalars[$0 - 1]) } ?? spaces.first ?? limit
            }
            var last = end
            while last > start && scalars[last - 1].properties.isWhitespace { last -= 1 }
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[start..<last])
            pieces.append((start, String(piece)))
            start = end
        }
        return pieces
    }

    /// `next` after `speech`, its samples (at `speech`'s rate) and events moved to where it starts
    /// in the item's text and audio; only the last piece's end event is kept.
    static func join(_ speech: SynthesizedSpeech?, _ next: SynthesizedSpeech, textOffset: Int) -> SynthesizedSpeech {
        guard var speech else {
            var first = next
            first.events = next.events.map {
                SynthesisEvent(
                    kind: $0.kind, textPosition: $0.textPosition + textOffset, length: $0.length, audioMs: $0.audioMs)
            }
            return first
        }
        let offsetMs = speech.durationMs
        let samples =
            next.sampleRate == speech.sampleRate
            ? next.samples : Resampler.resample(next.samples, from: next.sampleRate, to: speech.sampleRate)
        speech.samples += samples
        speech.events.removeAll { $0.kind == .end }
        speech.events += next.events.map {
            SynthesisEvent(
                kind: $0.kind, textPosition: $0.textPosition + textOffset, length: $0.length,
                audioMs: $0.audioMs + offsetMs)
        }
        return speech
    }
}
