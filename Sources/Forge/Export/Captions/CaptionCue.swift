/// One caption: a sentence, or a part of a long sentence cut at a word boundary.
package struct CaptionCue: Sendable, Equatable {
    package var startMs: Int
    package var endMs: Int
    package var text: String

    /// Cues for a chapter: one per sentence, sentences longer than `maxCharacters` cut into
    /// several cues at word boundaries, each in at most two lines (``lines(_:maxCharacters:)``).
    /// Times are chapter-absolute and never overlap.
    package static func cues(for timeline: ChapterTimeline, maxCharacters: Int) -> [CaptionCue] {
        var cues: [CaptionCue] = []
        for item in timeline.items {
            let scalars = Array(item.record.text.unicodeScalars)
            for sentence in item.sentences {
                var first = sentence.wordRange.lowerBound
                let upper = sentence.wordRange.upperBound
                let line = max(1, (maxCharacters + 1) / 2)
                func width(_ from: Int, _ to: Int) -> Int { item.words[to].token.end - item.words[from].token.start }
                while first < upper {
                    // Two lines at most, each filled with words up to half of maxCharacters.
                    var last = first
                    while last + 1 < upper, width(first, last + 1) <= line { last += 1 }
                    if last + 1 < upper {
                        let second = last + 1
                        last = second
                        while last + 1 < upper, width(second, last + 1) <= line { last += 1 }
                    }
                    // A cue that opens or closes its sentence keeps the sentence's quotes and punctuation.
                    let textStart =
                        first == sentence.wordRange.lowerBound
                        ? sentence.charRange.lowerBound : item.words[first].token.start
                    let textEnd =
                        last + 1 == sentence.wordRange.upperBound
                        ? sentence.charRange.upperBound : item.words[last].token.end
                    let text = String(scalars: scalars[textStart..<textEnd])
                    let start = max(item.words[first].timing?.startMs ?? sentence.startMs, cues.last?.endMs ?? 0)
                    let end = max(item.words[last].timing?.endMs ?? sentence.endMs, start + 1)
                    cues.append(
                        CaptionCue(
                            startMs: start, endMs: end,
                            text: Self.lines(text.replacingNewlines(), maxCharacters: maxCharacters)))
                    first = last + 1
                }
            }
        }
        return cues
    }

    /// A cue's text as subtitles show it: one line when it fits half of `maxCharacters` (42 of the
    /// default 84, the broadcast convention), else two lines broken at the space that makes the
    /// longer line shortest.
    static func lines(_ text: String, maxCharacters: Int) -> String {
        let line = max(1, (maxCharacters + 1) / 2)
        guard text.count > line else { return text }
        let characters = Array(text)
        var best: (index: Int, longest: Int)?
        for (index, character) in characters.enumerated() where character == " " {
            let longest = max(index, characters.count - index - 1)
            if best == nil || longest < best!.longest { best = (index, longest) }
        }
        guard let best else { return text }
        return String(characters[..<best.index]) + "\n" + String(characters[(best.index + 1)...])
    }

    package static func webVTT(_ cues: [CaptionCue]) -> String {
        var text = "WEBVTT\n\n"
        for (index, cue) in cues.enumerated() {
            text +=
                "\(index + 1)\n\(clock(cue.startMs, separator: ".")) --> \(clock(cue.endMs, separator: "."))\n\(cue.text)\n\n"
        }
        return text
    }

    package static func subRip(_ cues: [CaptionCue]) -> String {
        var text = ""
        for (index, cue) in cues.enumerated() {
            text +=
                "\(index + 1)\n\(clock(cue.startMs, separator: ",")) --> \(clock(cue.endMs, separator: ","))\n\(cue.text)\n\n"
        }
        return text
    }

    /// `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SRT).
    static func clock(_ ms: Int, separator: String) -> String {
        let hours = ms / 3_600_000
        let minutes = ms / 60_000 % 60
        let seconds = ms / 1000 % 60
        return
            "\(hours.zeroPadded(to: 2)):\(minutes.zeroPadded(to: 2)):\(seconds.zeroPadded(to: 2))\(separator)\((ms % 1000).zeroPadded(to: 3))"
    }
}

extension String {
    /// Newlines inside a caption's text would end the cue early; they become spaces.
    func replacingNewlines() -> String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
