/// Where each word of a whole text was placed, packed while a long recording is aligned: 32
/// bytes a word where `[WordPlacement?]` takes 48. The same values, exactly: a missing
/// confidence or fit is stored as NaN.
struct PlacementList: Sendable {
    private var starts: [Int]
    private var ends: [Int]
    private var confidences: [Double]
    private var fits: [Double]

    /// `count` words, none placed.
    init(count: Int) {
        starts = [Int](repeating: Self.unplaced, count: count)
        ends = [Int](repeating: 0, count: count)
        confidences = [Double](repeating: .nan, count: count)
        fits = [Double](repeating: .nan, count: count)
    }

    private static let unplaced = Int.min

    subscript(word: Int) -> WordPlacement? {
        get {
            guard starts[word] != Self.unplaced else { return nil }
            return WordPlacement(
                startMs: starts[word], endMs: ends[word],
                confidence: confidences[word].isNaN ? nil : confidences[word],
                fit: fits[word].isNaN ? nil : fits[word])
        }
        set {
            starts[word] = newValue?.startMs ?? Self.unplaced
            ends[word] = newValue?.endMs ?? 0
            confidences[word] = newValue?.confidence ?? .nan
            fits[word] = newValue?.fit ?? .nan
        }
    }

    /// The placements as `WordPlacement?`, leaving none here.
    mutating func drained() -> [WordPlacement?] {
        let placements = starts.indices.map { self[$0] }
        (starts, ends, confidences, fits) = ([], [], [], [])
        return placements
    }
}
