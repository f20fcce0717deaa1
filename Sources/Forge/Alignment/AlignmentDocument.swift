import Foundation

/// A stored forced alignment (an object with role `alignment`): the timings and confidences of
/// one item's words in one audio object, so re-exporting or rebuilding never aligns it again.
///
/// JSON: `{"version":1,"aligner":"forced-1/…","durationMs":5120,"words":[[0,340,0.98],[340,610,null],…]}`
/// — `[startMs, endMs, confidence]` per word in order; confidence null where interpolated.
public struct AlignmentDocument: Sendable, Equatable {
    public var aligner: String
    public var durationMs: Int
    public var alignment: ForcedAlignment

    public init(aligner: String, durationMs: Int, alignment: ForcedAlignment) {
        self.aligner = aligner
        self.durationMs = durationMs
        self.alignment = alignment
    }

    public func encoded() -> [UInt8] {
        var text = "{\"version\":1,\"aligner\":\(JSONText.quoted(aligner)),\"durationMs\":\(durationMs),\"words\":["
        for (index, timing) in alignment.timings.enumerated() {
            if index > 0 { text += "," }
            let confidence = alignment.confidences[index].map { String(format: "%.3f", $0) } ?? "null"
            text += "[\(timing.startMs),\(timing.endMs),\(confidence)]"
        }
        text += "]}\n"
        return Array(text.utf8)
    }

    /// Reads a stored document; nil when it is not one (a damaged object).
    public static func decode(_ data: Data) -> AlignmentDocument? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["version"] as? Int == 1, let aligner = object["aligner"] as? String,
            let duration = object["durationMs"] as? Int, let words = object["words"] as? [[Any]]
        else { return nil }
        var timings: [WordTiming] = []
        var confidences: [Double?] = []
        for word in words {
            guard word.count == 3, let start = word[0] as? Int, let end = word[1] as? Int, end > start else { return nil }
            timings.append(WordTiming(startMs: start, endMs: end))
            confidences.append(word[2] as? Double)
        }
        return AlignmentDocument(aligner: aligner, durationMs: duration, alignment: ForcedAlignment(timings: timings, confidences: confidences))
    }
}
