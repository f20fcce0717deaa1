/// Word error rate of a hypothesis against a reference, with which reference words were heard.
package struct WordErrorRate: Sendable, Equatable {
    /// Substitutions + deletions + insertions.
    package var errors: Int
    package var referenceCount: Int
    /// For each reference word: whether the hypothesis has it at the aligned position.
    package var heard: [Bool]

    /// errors / reference words (0 when both are empty; 1 per inserted word when the reference is empty).
    package var rate: Double {
        referenceCount == 0 ? (errors == 0 ? 0 : 1) : Double(errors) / Double(referenceCount)
    }

    /// Levenshtein alignment of word sequences (unit costs), keeping the backtrace.
    package init(reference: [String], hypothesis: [String]) {
        let n = reference.count
        let m = hypothesis.count
        let cost = EditDistance.table(reference, hypothesis)
        var heard = [Bool](repeating: false, count: n)
        var i = n
        var j = m
        while i > 0 && j > 0 {
            if cost[i][j] == cost[i - 1][j - 1] + (reference[i - 1] == hypothesis[j - 1] ? 0 : 1) {
                heard[i - 1] = reference[i - 1] == hypothesis[j - 1]
                i -= 1
                j -= 1
            } else if cost[i][j] == cost[i - 1][j] + 1 {
                i -= 1
            } else {
                j -= 1
            }
        }
        errors = cost[n][m]
        referenceCount = n
        self.heard = heard
    }
}
