/// Levenshtein distance (unit costs): for "did you mean" suggestions, and word error rates.
enum EditDistance {
    /// The full table: `table[i][j]` is the distance between the first `i` elements of `a` and the
    /// first `j` of `b`, so a caller can trace the alignment back from `table[a.count][b.count]`.
    static func table<Element: Equatable>(_ a: [Element], _ b: [Element]) -> [[Int]] {
        var cost = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { cost[i][0] = i }
        for j in 0...b.count { cost[0][j] = j }
        guard !a.isEmpty, !b.isEmpty else { return cost }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = cost[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                cost[i][j] = min(substitution, cost[i - 1][j] + 1, cost[i][j - 1] + 1)
            }
        }
        return cost
    }

    /// The distance between two words, ignoring case.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased().unicodeScalars)
        let b = Array(b.lowercased().unicodeScalars)
        return table(a, b)[a.count][b.count]
    }

    /// The candidates close enough to `word` to be a likely typo, closest first.
    static func suggestions(for word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let threshold = max(2, word.count / 3)
        return
            candidates
            .map { (candidate: $0, distance: between(word, $0)) }
            .filter { $0.distance <= threshold || $0.candidate.lowercased().hasPrefix(word.lowercased()) }
            .sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }
            .prefix(limit)
            .map(\.candidate)
    }
}
