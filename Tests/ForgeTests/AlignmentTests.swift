import Testing

@testable import Forge

@Suite("Word timings from synthesizer events")
struct AlignmentTests {
    func assertWellFormed(
        _ timings: [WordTiming], words: Int, durationMs: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(timings.count == words, sourceLocation: sourceLocation)
        var previousStart = -1
        for timing in timings {
            #expect(timing.startMs > previousStart, "starts must increase", sourceLocation: sourceLocation)
            #expect(timing.endMs > timing.startMs, "no zero-length word", sourceLocation: sourceLocation)
            #expect(
                timing.startMs >= 0 && timing.endMs <= durationMs, "inside the audio", sourceLocation: sourceLocation)
            previousStart = timing.startMs
        }
        for (current, next) in zip(timings, timings.dropFirst()) {
            #expect(current.endMs <= next.startMs, "words do not overlap", sourceLocation: sourceLocation)
        }
    }

    @Test func eventsMapToWordsByPositionAndGapsAreInterpolated() {
        let words = Tokenizer.words(in: "It is a truth, universally known.")
        let events = [
            SynthesisEvent(kind: .sentence, textPosition: 0, length: 0, audioMs: 0),
            SynthesisEvent(kind: .word, textPosition: 0, length: 2, audioMs: 0),
            SynthesisEvent(kind: .word, textPosition: 3, length: 2, audioMs: 100),
            // no event for "a"
            SynthesisEvent(kind: .word, textPosition: 8, length: 5, audioMs: 300),
            SynthesisEvent(kind: .end, textPosition: 13, length: 0, audioMs: 700),
            SynthesisEvent(kind: .word, textPosition: 14, length: 0, audioMs: 800),  // a zero-length event at the space
            SynthesisEvent(kind: .word, textPosition: 27, length: 5, audioMs: 1500),
            SynthesisEvent(kind: .end, textPosition: 33, length: 0, audioMs: 1900),
        ]
        let timings = EventAligner.align(words: words, events: events, durationMs: 2000)
        assertWellFormed(timings, words: 6, durationMs: 2000)
        // "a" sits 3 of 5 characters from "is" to "truth".
        #expect(timings.map(\.startMs) == [0, 100, 220, 300, 800, 1500])
        #expect(timings[3].endMs == 700, "a clause end cuts the word before the pause")
        #expect(timings[5].endMs == 1900)
    }

    @Test func noEventsAtAllStillGivesEveryWordATime() {
        let words = Tokenizer.words(in: "one two three four")
        let timings = EventAligner.align(words: words, events: [], durationMs: 1000)
        assertWellFormed(timings, words: 4, durationMs: 1000)
        #expect(timings.first?.startMs == 0)
    }

    @Test func eventsOutOfOrderOrBeyondTheAudioAreClamped() {
        let words = Tokenizer.words(in: "alpha beta gamma")
        let events = [
            SynthesisEvent(kind: .word, textPosition: 0, length: 5, audioMs: 500),
            SynthesisEvent(kind: .word, textPosition: 6, length: 4, audioMs: 200),
            SynthesisEvent(kind: .word, textPosition: 11, length: 5, audioMs: 5000),
        ]
        assertWellFormed(EventAligner.align(words: words, events: events, durationMs: 900), words: 3, durationMs: 900)
    }

    @Test func realEspeakEventsGiveWellFormedTimingsForEveryWord() throws {
        let engine = try EspeakEngine()
        for text in [
            Fixtures.shortBook.split(separator: "\n\n").map(String.init).joined(separator: " "),
            "Mr. Bennet paid £1,000.50 on 12/03/1811 — “don’t,” said she; Café naïve résumé!",
            "<speak>not markup</speak> [[h@l'oU]] 東京は晴れ",
        ] {
            let speech = try engine.synthesize(text, voice: VoiceSettings(), itemID: "test")
            let words = Tokenizer.words(in: text)
            #expect(speech.events.contains { $0.kind == .word })
            assertWellFormed(
                EventAligner.align(words: words, events: speech.events, durationMs: speech.durationMs),
                words: words.count, durationMs: speech.durationMs)
        }
    }

    @Test func espeakPositionsAreUnicodeScalarOffsets() throws {
        let engine = try EspeakEngine()
        let text = "Café résumé naïve fiancée"
        let speech = try engine.synthesize(text, voice: VoiceSettings(), itemID: "test")
        let starts = speech.events.filter { $0.kind == .word && $0.length > 0 }.map(\.textPosition)
        #expect(starts == Tokenizer.words(in: text).map(\.start))
    }

    @Test func unknownVoiceIsReported() throws {
        let engine = try EspeakEngine()
        #expect(engine.hasVoice("en-us"))
        #expect(engine.hasVoice("en-us+klatt"))
        #expect(!engine.hasVoice("xx-nowhere"))
        #expect(throws: SpeechError.unknownVoice("xx-nowhere")) {
            try engine.synthesize("Hello.", voice: VoiceSettings(id: "xx-nowhere"), itemID: "test")
        }
    }
}
