import Foundation

/// A stored forced alignment (an object with role `alignment`): the timings and confidences of
/// one item's words in one audio object, so re-exporting or rebuilding never aligns it again.
///
/// JSON: `{"version":1,"aligner":"forced-1/…","durationMs":5120,"words":[[0,340,0.98],[340,610,null],…]}`
/// — `[startMs, endMs, confidence]` per word in order; confidence null where interpolated.
/// A narration's document adds `"heard":"1101…"` (one digit per word), `"speechMs"`, `"unmatchedSpeechMs"` and
/// `"spans":[["matched",startMs,endMs,firstWord,endWord],…]`.
package struct AlignmentDocument: Sendable, Equatable {
    package var aligner: String
    package var durationMs: Int
    package var alignment: ForcedAlignment
    /// For a narration: which words were heard, and where recording and text agree.
    package var narration: NarrationAlignment?

    package init(aligner: String, durationMs: Int, alignment: ForcedAlignment) {
        self.aligner = aligner
        self.durationMs = durationMs
        self.alignment = alignment
    }

    package init(aligner: String, durationMs: Int, narration: NarrationAlignment) {
        self.init(aligner: aligner, durationMs: durationMs, alignment: narration.alignment)
        self.narration = narration
    }

    package func encoded() -> [UInt8] {
        var text = "{\"version\":1,\"aligner\":\(JSONText.quoted(aligner)),\"durationMs\":\(durationMs),\"words\":["
        for (index, timing) in alignment.timings.enumerated() {
            if index > 0 { text += "," }
            let confidence = alignment.confidences[index].map { String(format: "%.3f", $0) } ?? "null"
            text += "[\(timing.startMs),\(timing.endMs),\(confidence)]"
        }
        text += "]"
        if let narration {
            text +=
                ",\"heard\":\"" + String(narration.heard.map { $0 ? "1" : "0" })
                + "\",\"speechMs\":\(narration.speechMs),\"unmatchedSpeechMs\":\(narration.unmatchedSpeechMs),\"spans\":["
            text += narration.spans.map {
                "[\"\($0.kind.rawValue)\",\($0.startMs),\($0.endMs),\($0.words.lowerBound),\($0.words.upperBound)]"
            }.joined(separator: ",")
            text += "]"
        }
        text += "}\n"
        return Array(text.utf8)
    }

    /// Reads a stored document; nil when it is not one (a damaged object).
    package static func decode(_ data: Data) -> AlignmentDocument? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["version"] as? Int == 1, let aligner = object["aligner"] as? String,
            let duration = object["durationMs"] as? Int, let words = object["words"] as? [[Any]]
        else { return nil }
        var timings: [WordTiming] = []
        var confidences: [Double?] = []
        for word in words {
            guard word.count == 3, let start = word[0] as? Int, let end = word[1] as? Int, end > start else {
                return nil
            }
            timings.append(WordTiming(startMs: start, endMs: end))
            confidences.append(word[2] as? Double)
        }
        var document = AlignmentDocument(
            aligner: aligner, durationMs: duration,
            alignment: ForcedAlignment(timings: timings, confidences: confidences))
        if let heard = object["heard"] as? String, let speechMs = object["speechMs"] as? Int,
            let unmatchedSpeechMs = object["unmatchedSpeechMs"] as? Int,
            let rows = object["spans"] as? [[Any]]
        {
            guard heard.count == timings.count else { return nil }
            var spans: [NarrationSpan] = []
            for row in rows {
                guard row.count == 5, let kind = (row[0] as? String).flatMap(NarrationSpan.Kind.init(rawValue:)),
                    let start = row[1] as? Int,
                    let end = row[2] as? Int, let first = row[3] as? Int, let last = row[4] as? Int, first <= last
                else { return nil }
                spans.append(NarrationSpan(kind: kind, startMs: start, endMs: end, words: first..<last))
            }
            document.narration = NarrationAlignment(
                alignment: document.alignment, heard: heard.map { $0 == "1" }, spans: spans, speechMs: speechMs,
                unmatchedSpeechMs: unmatchedSpeechMs)
        }
        return document
    }
}
