/// The stages a build runs, in order.
public enum Stage: String, Sendable, CaseIterable, Comparable {
    case split
    case speak
    case align

    public static func < (lhs: Stage, rhs: Stage) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
