import Foundation

/// A stored forced alignment (an object with role `alignment`): the timings and confidences of
/// one item's words in one audio object, so re-exporting or rebuilding never aligns it again.
///
/// JSON: `{"version":1,"aligner":"forced-1/…","durationMs":5120,"words":[[0,340,0.98],[340,610,null],…]}`
/// — `[startMs, endMs, confidence]` per word in order; confidence null where interpolated.
/// A narration's document adds `"heard":"1101…"` (one digit per word), `"speechMs"`, `"unmatchedSpeechMs"` and
/// `"spans":[["matched",startMs,endMs,firstWord,endWord],…]`, and, when the recording's length was
/// recorded with it, `"frames"` and `"missingFrames"` (its frames at its own rate, and those its
/// header promised that could not be decoded), so a run that takes the alignment from the store
/// need not decode the recording to learn them.
package struct AlignmentDocument: Sendable, Equatable {
    /// A narration's recording as it was decoded: its frames (at its own rate) and those its
    /// header promised that could not be decoded.
    package struct RecordingLength: Sendable, Equatable {
        package var frames: Int
        package var missingFrames: Int

        package init(frames: Int, missingFrames: Int) {
            self.frames = frames
            self.missingFrames = missingFrames
        }
    }

    package var aligner: String
    package var durationMs: Int
    package var alignment: ForcedAlignment
    /// For a narration: which words were heard, and where recording and text agree.
    package var narration: NarrationAlignment?
    /// For a narration: the recording's length, when it was kept with the alignment.
    package var recording: RecordingLength?

    package init(aligner: String, durationMs: Int, alignment: ForcedAlignment) {
        self.aligner = aligner
        self.durationMs = durationMs
        self.alignment = alignment
    }

    package init(
        aligner: String, durationMs: Int, narration: NarrationAlignment,
        recording: RecordingLength? = nil
    ) {
        self.init(aligner: aligner, durationMs: durationMs, alignment: narration.alignment)
        self.narration = narration
        self.recording = recording
    }

    package func encoded() -> [UInt8] {
        // Keys in the order this document was always written (its bytes are its objects' digests).
        var json = JSONWriter(escaping: .canonical, sortedKeys: false, capacity: 64 + alignment.timings.count * 24)
        json.object { document in
            document.field("version", 1)
            document.field("aligner", aligner)
            document.field("durationMs", durationMs)
            document.array("words") { words in
                for (index, timing) in alignment.timings.enumerated() {
                    words.array { word in
                        word.value(timing.startMs)
                        word.value(timing.endMs)
                        if let confidence = alignment.confidences[index] {
                            word.json(String(format: "%.3f", confidence).utf8)
                        } else {
                            word.null()
                        }
                    }
                }
            }
            if let narration {
                document.field("heard", String(narration.heard.map { $0 ? "1" : "0" }))
                document.field("speechMs", narration.speechMs)
                document.field("unmatchedSpeechMs", narration.unmatchedSpeechMs)
                document.array("spans") { spans in
                    for span in narration.spans {
                        spans.array { entry in
                            entry.value(span.kind.rawValue)
                            entry.value(span.startMs)
                            entry.value(span.endMs)
                            entry.value(span.words.lowerBound)
                            entry.value(span.words.upperBound)
                        }
                    }
                }
                if let recording {
                    document.field("frames", recording.frames)
                    document.field("missingFrames", recording.missingFrames)
                }
            }
        }
        json.newline()
        return json.bytes
    }
}
