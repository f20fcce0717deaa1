/// Cuts text into words, with Unicode scalar ranges that match espeak-ng's event positions.
///
/// Contractions ("don't", "don’t"), hyphenated words and numbers ("1,000.5") stay whole;
/// quotes and dashes are never part of a word; ideographic and kana text, which has no
/// spaces, gets one word per character.
package enum Tokenizer {
    package static func words(in text: String) -> [WordToken] {
        words(in: Array(text.unicodeScalars))
    }

    package static func words(in scalars: [Unicode.Scalar]) -> [WordToken] {
        var tokens: [WordToken] = []
        forEachWord(in: scalars[...]) { range in
            tokens.append(
                WordToken(
                    index: tokens.count, text: String(scalars: scalars[range]), start: range.lowerBound,
                    end: range.upperBound))
        }
        return tokens
    }

    /// How many words ``words(in:)`` would find, without making them.
    package static func wordCount(in scalars: ArraySlice<Unicode.Scalar>) -> Int {
        var count = 0
        forEachWord(in: scalars) { _ in count += 1 }
        return count
    }

    /// Calls `body` with each word's scalar range, in order.
    private static func forEachWord(in scalars: ArraySlice<Unicode.Scalar>, _ body: (Range<Int>) -> Void) {
        var index = scalars.startIndex
        let count = scalars.endIndex
        while index < count {
            let scalar = scalars[index]
            if isUnspacedScript(scalar) {
                body(index..<(index + 1))
                index += 1
                continue
            }
            guard isWordScalar(scalar) else {
                index += 1
                continue
            }
            let start = index
            index += 1
            while index < count {
                let current = scalars[index]
                if isUnspacedScript(current) { break }
                if isWordScalar(current) || isMark(current) {
                    index += 1
                    continue
                }
                // A joiner stays inside the word only between two word characters: "don't", "well-known", "1,000".
                if index + 1 < count, isWordScalar(scalars[index + 1]), !isUnspacedScript(scalars[index + 1]),
                    isJoiner(current, previous: scalars[index - 1], next: scalars[index + 1])
                {
                    index += 2
                    continue
                }
                break
            }
            body(start..<index)
        }
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isLetterOrDigit
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static func isJoiner(_ scalar: Unicode.Scalar, previous: Unicode.Scalar, next: Unicode.Scalar) -> Bool {
        switch scalar {
        case "'", "\u{2019}", "\u{02BC}", "-", "\u{2010}", "\u{2011}", "\u{00AD}":
            return true
        case ".", ",":
            return isDigit(previous) && isDigit(next)
        default:
            return false
        }
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (0x30...0x39).contains(scalar.value) : scalar.properties.numericType != nil
    }

    /// Scripts written without spaces between words, where each character is spoken as a unit.
    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        switch scalar.value {
        case 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF,  // Hiragana, Katakana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F:  // CJK ideographs
            return true
        default:
            return false
        }
    }
}
