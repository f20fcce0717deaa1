/// One caption: a sentence, or a part of a long sentence cut at a word boundary.
public struct CaptionCue: Sendable, Equatable {
    public var startMs: Int
    public var endMs: Int
    public var text: String

    /// Cues for a chapter: one per sentence, sentences longer than `maxCharacters` cut into
    /// several cues at word boundaries. Times are chapter-absolute and never overlap.
    public static func cues(for timeline: ChapterTimeline, maxCharacters: Int) -> [CaptionCue] {
        var cues: [CaptionCue] = []
        for item in timeline.items {
            let scalars = Array(item.record.text.unicodeScalars)
            for sentence in item.sentences {
                var first = sentence.wordRange.lowerBound
                while first < sentence.wordRange.upperBound {
                    var last = first
                    while last + 1 < sentence.wordRange.upperBound,
                        item.words[last + 1].token.end - item.words[first].token.start <= maxCharacters
                    {
                        last += 1
                    }
                    // A cue that opens or closes its sentence keeps the sentence's quotes and punctuation.
                    let textStart = first == sentence.wordRange.lowerBound ? sentence.charRange.lowerBound : item.words[first].token.start
                    let textEnd = last + 1 == sentence.wordRange.upperBound ? sentence.charRange.upperBound : item.words[last].token.end
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars[textStart..<textEnd])
                    let start = max(item.words[first].timing?.startMs ?? sentence.startMs, cues.last?.endMs ?? 0)
                    let end = max(item.words[last].timing?.endMs ?? sentence.endMs, start + 1)
                    cues.append(CaptionCue(startMs: start, endMs: end, text: text.replacingNewlines()))
                    first = last + 1
                }
            }
        }
        return cues
    }

    public static func webVTT(_ cues: [CaptionCue]) -> String {
        var text = "WEBVTT\n\n"
        for (index, cue) in cues.enumerated() {
            text += "\(index + 1)\n\(clock(cue.startMs, separator: ".")) --> \(clock(cue.endMs, separator: "."))\n\(cue.text)\n\n"
        }
        return text
    }

    public static func subRip(_ cues: [CaptionCue]) -> String {
        var text = ""
        for (index, cue) in cues.enumerated() {
            text += "\(index + 1)\n\(clock(cue.startMs, separator: ",")) --> \(clock(cue.endMs, separator: ","))\n\(cue.text)\n\n"
        }
        return text
    }

    /// `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SRT).
    static func clock(_ ms: Int, separator: String) -> String {
        let hours = ms / 3_600_000
        let minutes = ms / 60_000 % 60
        let seconds = ms / 1000 % 60
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2))\(separator)\(pad(ms % 1000, 3))"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension String {
    /// Newlines inside a caption's text would end the cue early; they become spaces.
    func replacingNewlines() -> String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
