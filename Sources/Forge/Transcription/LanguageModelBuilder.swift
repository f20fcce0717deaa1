import Foundation

/// Builds a trigram language model (ARPA text) from the book's own text, so the recognizer
/// expects the words and phrases the book contains: with pocketsphinx's stock en-us model it
/// mishears espeak-ng's voice about 70% of the time, with the book's own model 2–20%.
///
/// Absolute discounting (D = 0.5) with back-off to lower orders, over sentences normalized by
/// ``TranscriptNormalizer`` and wrapped in `<s>` … `</s>`.
package enum LanguageModelBuilder {
    package static let version = "lm-1"
    static let discount = 0.5

    /// The ARPA text of a trigram model of `sentences` (already normalized tokens).
    package static func arpa(sentences: [[String]]) -> String {
        var unigrams: [String: Int] = [:]
        var bigrams: [[String]: Int] = [:]
        var trigrams: [[String]: Int] = [:]
        for sentence in sentences where !sentence.isEmpty {
            let tokens = ["<s>"] + sentence + ["</s>"]
            for (index, token) in tokens.enumerated() {
                unigrams[token, default: 0] += 1
                if index >= 1 { bigrams[[tokens[index - 1], token], default: 0] += 1 }
                if index >= 2 { trigrams[[tokens[index - 2], tokens[index - 1], token], default: 0] += 1 }
            }
        }
        let total = Double(unigrams.filter { $0.key != "<s>" }.values.reduce(0, +))
        var p1: [String: Double] = [:]
        for (word, count) in unigrams where word != "<s>" { p1[word] = Double(count) / total }

        // Bigram probabilities and each history's back-off weight.
        var historyCount: [String: Int] = [:]
        var historyTypes: [String: Int] = [:]
        for (pair, count) in bigrams {
            historyCount[pair[0], default: 0] += count
            historyTypes[pair[0], default: 0] += 1
        }
        var p2: [[String]: Double] = [:]
        var seenMass2: [String: (model: Double, lower: Double)] = [:]
        for (pair, count) in bigrams {
            let probability = (Double(count) - discount) / Double(historyCount[pair[0]]!)
            p2[pair] = probability
            let mass = seenMass2[pair[0], default: (0, 0)]
            seenMass2[pair[0]] = (mass.model + probability, mass.lower + (p1[pair[1]] ?? 0))
        }
        var backoff1: [String: Double] = [:]
        for (history, mass) in seenMass2 { backoff1[history] = max(1e-12, 1 - mass.model) / max(1e-12, 1 - mass.lower) }
        func bigram(_ first: String, _ second: String) -> Double {
            p2[[first, second]] ?? (backoff1[first] ?? 1) * (p1[second] ?? 1e-12)
        }

        var history2Count: [[String]: Int] = [:]
        for (triple, count) in trigrams { history2Count[Array(triple.prefix(2)), default: 0] += count }
        var p3: [[String]: Double] = [:]
        var seenMass3: [[String]: (model: Double, lower: Double)] = [:]
        for (triple, count) in trigrams {
            let history = Array(triple.prefix(2))
            let probability = (Double(count) - discount) / Double(history2Count[history]!)
            p3[triple] = probability
            let mass = seenMass3[history, default: (0, 0)]
            seenMass3[history] = (mass.model + probability, mass.lower + bigram(triple[1], triple[2]))
        }
        var backoff2: [[String]: Double] = [:]
        for (history, mass) in seenMass3 { backoff2[history] = max(1e-12, 1 - mass.model) / max(1e-12, 1 - mass.lower) }

        func log10(_ value: Double) -> String { Self.formattedLog10(value) }
        var text = "\\data\\\nngram 1=\(unigrams.count)\nngram 2=\(p2.count)\nngram 3=\(p3.count)\n\n\\1-grams:\n"
        for word in unigrams.keys.sorted() {
            let probability = word == "<s>" ? "-99.0000" : log10(p1[word]!)
            text += "\(probability) \(word) \(log10(backoff1[word] ?? 1))\n"
        }
        text += "\n\\2-grams:\n"
        for pair in p2.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            text += "\(log10(p2[pair]!)) \(pair[0]) \(pair[1]) \(log10(backoff2[pair] ?? 1))\n"
        }
        text += "\n\\3-grams:\n"
        for triple in p3.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            text += "\(log10(p3[triple]!)) \(triple[0]) \(triple[1]) \(triple[2])\n"
        }
        return text + "\n\\end\\\n"
    }

    /// log10(value) with four decimals, as ARPA files write it. `String(format:)` made formatting
    /// most of the time spent building a model for a whole book.
    static func formattedLog10(_ value: Double) -> String {
        let scaled = Int((Foundation.log10(max(value, 1e-99)) * 10_000).rounded())
        let magnitude = abs(scaled)
        let fraction = String(magnitude % 10_000)
        return (scaled < 0 ? "-" : "") + String(magnitude / 10_000) + "."
            + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
