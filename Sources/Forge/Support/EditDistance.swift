/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased().unicodeScalars)
        let b = Array(b.lowercased().unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidates close enough to `word` to be a likely typo, closest first.
    static func suggestions(for word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let threshold = max(2, word.count / 3)
        return candidates
            .map { (candidate: $0, distance: between(word, $0)) }
            .filter { $0.distance <= threshold || $0.candidate.lowercased().hasPrefix(word.lowercased()) }
            .sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }
            .prefix(limit)
            .map(\.candidate)
    }
}
