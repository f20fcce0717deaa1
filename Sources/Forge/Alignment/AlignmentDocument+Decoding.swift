import Foundation

extension AlignmentDocument {
    /// Reads a stored document; nil when it is not one (a damaged object).
    ///
    /// Decoded straight into its words' values: a narration's document holds every word of a book
    /// (17 MB for 609,000 words), and `JSONSerialization` made an object of each value of it, about
    /// eighteen times the document's size held at once.
    package static func decode(_ data: Data) -> AlignmentDocument? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data), stored.version == 1 else { return nil }
        var timings: [WordTiming] = []
        var confidences: [Double?] = []
        timings.reserveCapacity(stored.words.count)
        confidences.reserveCapacity(stored.words.count)
        for word in stored.words {
            guard word.endMs > word.startMs else { return nil }
            timings.append(WordTiming(startMs: word.startMs, endMs: word.endMs))
            confidences.append(word.confidence)
        }
        var document = AlignmentDocument(
            aligner: stored.aligner, durationMs: stored.durationMs,
            alignment: ForcedAlignment(timings: timings, confidences: confidences))
        if let heard = stored.heard, let speechMs = stored.speechMs, let unmatchedSpeechMs = stored.unmatchedSpeechMs,
            let rows = stored.spans
        {
            guard heard.utf8.count == timings.count,
                heard.utf8.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") })
            else { return nil }
            var spans: [NarrationSpan] = []
            for row in rows {
                guard let kind = NarrationSpan.Kind(rawValue: row.kind), row.firstWord <= row.endWord else {
                    return nil
                }
                spans.append(
                    NarrationSpan(
                        kind: kind, startMs: row.startMs, endMs: row.endMs, words: row.firstWord..<row.endWord))
            }
            document.narration = NarrationAlignment(
                alignment: document.alignment, heard: heard.utf8.map { $0 == UInt8(ascii: "1") }, spans: spans,
                speechMs: speechMs, unmatchedSpeechMs: unmatchedSpeechMs)
            if let frames = stored.frames, let missing = stored.missingFrames, frames > 0, missing >= 0 {
                document.recording = RecordingLength(frames: frames, missingFrames: missing)
            }
        }
        return document
    }

    /// The document as it is stored (``encoded()``).
    private struct Stored: Decodable {
        var version: Int
        var aligner: String
        var durationMs: Int
        var words: [Word]
        var heard: String?
        var speechMs: Int?
        var unmatchedSpeechMs: Int?
        var spans: [Span]?
        var frames: Int?
        var missingFrames: Int?
    }

    /// `[startMs, endMs, confidence or null]`.
    private struct Word: Decodable {
        var startMs: Int
        var endMs: Int
        var confidence: Double?

        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            startMs = try row.decode(Int.self)
            endMs = try row.decode(Int.self)
            confidence = try row.decodeNil() ? nil : try row.decode(Double.self)
            guard row.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: row, debugDescription: "a word has more than three values")
            }
        }
    }

    /// `[kind, startMs, endMs, firstWord, endWord]`.
    private struct Span: Decodable {
        var kind: String
        var startMs: Int
        var endMs: Int
        var firstWord: Int
        var endWord: Int

        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            kind = try row.decode(String.self)
            startMs = try row.decode(Int.self)
            endMs = try row.decode(Int.self)
            firstWord = try row.decode(Int.self)
            endWord = try row.decode(Int.self)
            guard row.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: row, debugDescription: "a span has more than five values")
            }
        }
    }
}
