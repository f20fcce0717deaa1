/// Finds sentence boundaries, treating a language's abbreviations ("Mr.", "e.g.", "z.B.") and
/// initials ("J. Smith") as part of a sentence rather than its end.
package enum SentenceSegmenter {
    static let closers: Set<Unicode.Scalar> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "]", "}", "\u{00BB}"]
    static let terminators: Set<Unicode.Scalar> = [
        ".", "!", "?", "\u{2026}", "\u{3002}", "\u{FF01}", "\u{FF0E}", "\u{FF1F}", "\u{0964}", "\u{0965}", "\u{061F}",
        "\u{06D4}",
    ]

    /// Sentence ranges within `range` of `scalars`, trimmed of surrounding white space.
    package static func sentences(
        in scalars: [Unicode.Scalar], range: Range<Int>? = nil, rules: SentenceRules = SentenceRules(language: "en")
    ) -> [Range<Int>] {
        let range = range ?? 0..<scalars.count
        var sentences: [Range<Int>] = []
        var start = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            let scalar = scalars[index]
            guard isTerminator(scalar) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < range.upperBound, isTerminator(scalars[end]) { end += 1 }
            while end < range.upperBound, closers.contains(scalars[end]) { end += 1 }
            let isFullWidth = scalar.value >= 0x3000
            if isFullWidth || isBoundary(scalars, terminator: index, after: end, limit: range.upperBound, rules: rules)
            {
                if let trimmed = trim(scalars, start..<end) { sentences.append(trimmed) }
                start = end
            }
            index = end
        }
        if let trimmed = trim(scalars, start..<range.upperBound) { sentences.append(trimmed) }
        return sentences
    }

    /// Whether `scalar` ends a sentence (``terminators``), without hashing the letters and spaces
    /// that make up nearly all of a text.
    @inline(__always)
    static func isTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21, 0x2E, 0x3F: return true
        case 0..<0x80: return false
        default: return terminators.contains(scalar)
        }
    }

    private static func isBoundary(
        _ scalars: [Unicode.Scalar], terminator: Int, after end: Int, limit: Int, rules: SentenceRules
    ) -> Bool {
        guard end < limit else { return true }
        guard scalars[end].isWhiteSpace else { return false }
        var next = end
        while next < limit, scalars[next].isWhiteSpace { next += 1 }
        guard next < limit else { return true }
        let following = scalars[next]
        if following.properties.isLowercase { return false }
        if scalars[terminator] == "." {
            // The word before the period: an abbreviation or a lone initial does not end the sentence.
            var wordStart = terminator
            while wordStart > 0, scalars[wordStart - 1].isLetter || scalars[wordStart - 1] == "." {
                wordStart -= 1
            }
            let word = String(scalars: scalars[wordStart..<terminator]).lowercased()
            if rules.abbreviations.contains(word) { return false }
            if word.unicodeScalars.count == 1, scalars[wordStart].properties.isUppercase { return false }
        }
        return true
    }

    static func trim(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int>? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, scalars[lower].isWhiteSpace { lower += 1 }
        while upper > lower, scalars[upper - 1].isWhiteSpace { upper -= 1 }
        return lower < upper ? lower..<upper : nil
    }
}
